// Package ai implements computer players for Malefiz on top of the rules
// engine, and the judgement around them: each player's chance to win
// (WinChances), why a move is good (Explain), where a captured barricade
// should go (SuggestPlacements), and the coach that grades a player's
// moves (Grader) and says what a move did wrong (Faults).
//
// # Levels
//
// A player chooses one of the legal moves for a roll, including where a
// captured barricade goes. Six levels exist. Easy plays with little
// foresight; normal maximises a heuristic evaluation of the position (see
// eval.go); hard searches every roll of the next one or two players and
// their best replies with that evaluation (expectimax); expert searches as
// hard does with a learned evaluation (Models.Play); master searches as
// hard does with an evaluation learned by temporal-difference self-play
// over richer features (TDModel, TDTrainer; learned in two-player games
// and played in three- and four-player games too); greedy is the baseline that other Malefiz
// programs ship, kept for comparison.
//
// Measured with `malefiz selfplay -games 2000 -seed 1`, seats rotated:
// normal beats greedy in 99.8 % of two-player games, hard 99.9 %; hard
// beats normal 71.0 %; easy never beat normal; hard wins 87.4 % of
// four-player games against three greedy players and 43.8 % (400 games)
// against three normal players. Expert beats hard in 51.1 % of 2,000
// two-player games (95 % interval 48.9–53.3 %: no clear edge, short of
// the 60 % aimed at) and wins 25.3 % of 1,000 four-player games against
// three hard players (95 % interval 22.6–28.0 %; fair share 25 %, aimed at
// 32 %). Against normal, expert wins 69 % of 100 games (hard 72.5 % of
// 200 in the README's table).
// Bigger searches for expert measured no clear gain: three turns deep 50.0 %
// of 200 games against hard; wider (more candidates, every placement of a
// barricade the reply captures, up to 6.5 times hard's work) 52.5–57.5 % of
// 200 games each, and the most promising 52.0 % of 600 more. Nor does
// an evaluation fitted to hard's own games (600 two-player games of hard
// against hard; experiment_test.go): every feature, which predicts their
// winners better than the play model's (log loss 0.5688 against 0.5794),
// plays 50.0 % of 200 games against hard, fewer features 43.5 and 48.0 %;
// the play model's features fitted to them give back hard's own power law
// (3.1), and a sharper power (8) plays 53.0 %. How much the moves can
// decide at all: seeing the opponent's next roll before moving, expert's
// search wins 67.5 % of 600 games against hard, seeing that roll and its
// own after it 76.7 %, seeing none 48.8 % (TestExperimentClairvoyance). A
// hard decision takes about 15 ms on average, 25 ms at the 95th
// percentile (BenchmarkHardDecision); an expert decision about the same
// (BenchmarkExpertDecision). The README has the table of every level
// against every other.
//
// # Win chances
//
// WinChances is a conditional logit model over the evaluation's terms per
// colour (its expected turns to the goal with and without the threats of
// capture, its best and second pawn, its seat in the round, its pawns at
// home) and five of master's features (what the barricades cost its
// leading pawn, its best rival's time and leading pawn, the captures it
// threatens, whether its leader is in the last stretch): a score per
// colour, softmax over the colours; then, per number of players, a
// calibration layer, a second conditional logit over a piecewise-linear
// function of the log of each colour's chance, so that the chances are
// calibrated at every table size, not only pooled. `malefiz train
// -chances-only -unusual 6000` fits the weights (FitWith) to the positions
// of 3,000 self-play games between greedy, easy and normal drawn at random
// (2 to 4 players; both house rules), every turn labelled with the game's
// winner, and of 5,989 games played out by the reply policy from unusual
// positions made of them (UnusualGame: lone runners, many pawns at home,
// walls, races); the layer to the 3,000 games alone. It writes
// model.json, which is embedded. Training replays from its seed.
//
// On 6,000 other games (seed 2; 2,000 of each table size; greedy, easy
// and normal, since hard's games cost too much CPU to play so many more),
// every turn's estimate of every player against the winner: Brier score
// 0.133 (the hand-made evaluation 0.140, 1/n for everyone 0.205), each
// tenth of predicted chance within 1.8, 1.3 and 2.6 points of the observed
// share at 2, 3 and 4 players (the README has the tables, with intervals
// from a bootstrap over whole games). Where games end it is further off:
// on the held-out positions (HeldOutPositions, testdata/heldout.json,
// each with the share of 700 rollouts of the reply policy each colour
// won) the card's chances (SteadyChances) come within 8 points of that
// truth for 69.6 % of the seats (the model fitted to the mixed games
// alone: 64.2 %; the coach's search: 52.2 %), short of the 95 % aimed at.
// The other way tried, Monte Carlo rollouts (RolloutEstimator) at 40
// rollouts per estimate, what fits the 15 ms budget, scores worse: its
// fast policy plays unlike the players, and 40 rollouts leave 8 points of
// noise. An estimate takes 0.04 ms at the 95th percentile
// (BenchmarkWinChances).
//
// # Grading
//
// A Grader is the coach. It grades a move against the best move for the
// roll actually thrown with the strongest level's evaluation and search
// (master's): every pawn move, a captured barricade on every legal square
// (pruned by the evaluation right after the move), searched one turn
// ahead and, near the best, two; a loss of 5 points or more is measured
// again by rollouts to the end, whose figure stands. The loss is the win
// chance given away, in points, and the roll's luck (what the best play
// of that roll is worth against the mean of the six rolls' best plays) is
// reported apart. Only decisions with more than one distinct outcome
// count. Losses that read 2, 5 and 10 points make an inaccuracy, a
// mistake and a blunder; a player's accuracy in a game is the mean of
// 100·e^(−loss/4) over their decisions (grade.go has the calibration).
// Accuracy is ordered with strength: master's own moves grade better than
// hard's (TestGradingOrdersStrength). The same search gives the hint
// (Grader.Best) and ranks the squares suggested for a captured barricade
// (Grader.Placements), and Faults says what a move did wrong against the
// best one, so that the hint, the suggestions and the review agree.
//
// The package is pure: it reads no clock and no global random source. A
// player's randomness comes from the seed it is created with, and hard's
// and expert's effort is a fixed amount of work, so every decision replays
// exactly.
package ai
