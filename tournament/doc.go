// Package tournament pairs and ranks a server's Malefiz tournament: the
// rules below are those a tournament director applies, and every later
// piece (the store, the game service, the cards) calls this package for
// them. It is pure: given the setup, the entrants and the rounds played, it
// answers the next round, the standings or why a setup is refused; no
// Discord, no database, no clock, no random source.
//
// # Setup
//
// A tournament has a format (Swiss, round robin or knockout), a table size
// (2, 3 or 4 players at a game) and a number of rounds, or as many as the
// format needs. It needs at least two entrants and no more seats at a
// table than entrants; a round robin takes at most 32 entrants. A Swiss
// plays at most ⌈(n−1)/(k−1)⌉ rounds for n entrants at tables of k (after
// that many, everyone could have met everyone: a round robin is then the
// format), by default ⌈log_k n⌉ (after that many, at most one entrant can
// have won every game). A round robin and a knockout play exactly the
// rounds of their schedule and bracket. Setup.Validate says which rule a
// setup breaks, with the number refused and the limit.
//
// # Points
//
// Each game scores by place, the same total for every table size: the
// winner 6, the last 0, the places between evenly spaced.
//
//	table of 2: 6 0
//	table of 3: 6 3 0
//	table of 4: 6 4 2 0
//
// A seat is worth 3 on average whatever the table, so rounds with tables
// of different sizes (see Swiss) stay comparable, and an entrant's total
// never depends on the size of the tables they were given. The places are
// the game's: the winner, then the others by their distance to the goal
// when the game ended, the nearest first. A bye scores 3, what a seat is
// worth on average: it neither lifts nor sinks.
//
// A player who forfeits a game (timed out, resigned, or withdrawn while it
// ran) scores 0 and counts as placed after everyone who did not forfeit;
// the others keep their places among themselves, so at a table of 4 with
// one forfeit the three who played score 6, 4 and 2. A player withdrawn
// from the tournament keeps the points they scored and is paired into no
// later round; in a round robin their later tables play without them.
//
// # Standings
//
// Swiss: points, then Buchholz, then rating, then sign-up order. Buchholz
// is the strength of the opposition: at each table played, the average
// points (now) of the others at that table, summed over the rounds; at
// tables of 2, the usual sum of the opponents' scores. A bye counts as
// meeting an opponent with the entrant's own points.
//
// Round robin: points, then Sonneborn–Berger, then rating, then sign-up
// order. Everyone meets everyone, so Buchholz says nothing; Sonneborn–
// Berger rewards beating the strong: at each table played, the points of
// the others the entrant finished ahead of, divided by the others at the
// table, summed over the rounds.
//
// Knockout: the round reached, then whoever is still in (the champion)
// before those who went out, then the points of their last game (second
// at a final of 4 before third), then rating, then sign-up order.
//
// # Swiss pairing
//
// Entrants are ranked by points, then rating, then sign-up order. Each
// round, entrants with the same points are seated together: the group is
// cut into as many bands as a table has seats and each table takes one
// entrant of each band (at tables of 2 the top half meets the bottom
// half), so the strongest of a group do not all meet at once; those left
// over when a group does not fill whole tables join the next group down.
//
// No two entrants meet again while another seating avoids it. At tables
// of 2 this is exact, for every field: a maximum matching of the pairs
// who have not met (Edmonds' algorithm) decides what can be avoided, and
// the pairing repeats no more meetings than the fewest there can be; each
// entrant, top down, gets the partner nearest in the standings that keeps
// that so.
//
// At tables of 3 and 4 it is exact as far as a bounded search reaches.
// Entrants are swapped between tables while that lowers the repeat
// meetings or, without adding one, brings the scores at a table closer.
// When meetings still repeat in a round of more than five tables, a table
// where someone meets again is seated again together with four others
// whenever their players fit at tables of the same sizes with nobody
// meeting again (at most 400 such groups,
// the four drawn from a source seeded by the field: a round is always
// paired the same); then, if meetings still repeat, a search of the whole
// field (of up to 256) looks for tables where nobody meets again. Each
// search gives up after a set number of seats tried (2,048 a group,
// 262,144 the whole field), and after either, swaps that keep the
// repeats as few bring the scores closer again. No bound keeps every
// large field exact: whether people can sit at tables of 3 with no two
// at a table who have met is, for an arbitrary record of who has met
// whom, the NP-complete partition into triangles (Garey and Johnson,
// GT11). The tests hold the pairing to this:
//
//   - TestSwissRandomFields: in 1,000 random tournaments of 2 to 20
//     entrants, a round repeats a meeting only when the test's own
//     unbounded search finds no seating that avoids it;
//   - TestSwissLargeFields: fields of 40 to 256 repeat no meeting while
//     there are more tables than anyone has met others (where a seating
//     without repeats is certain, by the Hajnal–Szemerédi theorem);
//   - TestSwissLateRounds: 64 entrants repeat no meeting up to round 24
//     at tables of 3 and round 13 at tables of 4, past both of those.
//
// Later than that a round may repeat a meeting that some seating would
// avoid. In six tournaments of 256 played to the most rounds allowed
// (BenchmarkSwiss256AllRounds, see Speed), the first repeat came at round
// 51 of 85 at tables of 4 and round 90 of 128 at tables of 3; a
// tournament of 256 plays 4 rounds at tables of 4 and 6 at tables of 3
// unless the host sets more.
//
// The field is split into ⌈n/k⌉ tables as even as can be: 8 at tables of 4
// play 4+4, 7 play 4+3, 6 play 3+3, 5 play 3+2, 9 play 3+3+3. So only at
// tables of 2 does an odd field leave a bye, and everyone plays every
// round otherwise. The bye goes to an entrant with the fewest byes: the
// lowest ranked of them, unless their bye would force a meeting to repeat
// that another's would not; nobody has a second bye while another has
// none.
//
// # Round robin
//
// Everyone meets everyone at a table at least once. At tables of 2, the
// circle method: n−1 rounds, or n with a bye each round when n is odd. At
// tables of 3 and 4, the tables are of a Swiss round's sizes and the
// schedule covers every pair in few rounds: built a round at a time, each
// the seating that brings the most pairs together for the first time, then
// searched (simulated annealing, seeded by the field's size: the same
// schedule every time) for one round fewer, down to the counting bound: a
// player meets at most k−1 others a round, and a round seats at most the
// pairs of its tables. For 4 to 16 entrants (TestRoundRobinComplete logs
// these):
//
//	entrants           4  5  6  7  8  9 10 11 12 13 14 15 16
//	tables of 3        3  3  4  5  4  4  6  6  7  8  8  7 10
//	  counting bound   3  3  3  5  4  4  6  6  6  8  7  7  9
//	tables of 4        1  3  4  3  3  4  4  5  5  6  6  6  5
//	  counting bound   1  3  3  3  3  4  4  4  4  6  6  5  5
//
// Six entrants at tables of 3+3 need 4 rounds, not the bound's 3: a later
// round's table of 3 always holds two who sat together in the first, so
// each round after the first brings together at most 4 of the 9 pairs
// split by the first round's tables, and those 9 take 3 more rounds. Fifteen at tables of 3 play Kirkman's
// schoolgirls (7 rounds), 9 at tables of 3 and 16 at tables of 4 the
// affine planes (4 and 5 rounds): every pair exactly once.
//
// # Knockout
//
// Entrants are seeded by rating, then sign-up order. The bracket has
// ⌈log_k n⌉ rounds; its first round has k^(rounds−1) tables, and seeds 1,
// 2, … each lead one, the others dealt in a snake (at tables of 2 the
// usual 1–8, 4–5, 2–7, 3–6), so that seeds 1 to k meet only in the final.
// When the field is not a power of k the top seeds get the byes and some
// first-round tables are smaller: 6 at tables of 4 play a bye for seeds 1
// and 2, then tables 3–6 and 4–5, then a final of 4. Each table's winner
// goes on to the table the bracket names; a player who forfeits does not
// win, and a table everyone forfeits sends nobody on. A winner who
// withdraws leaves an empty seat: their next table plays without them (a
// bye when one entrant is left). The final's winner wins the tournament.
//
// # Speed
//
// A round pairs in milliseconds, so that the next round can open as the
// last game ends. On the project's 2-core test machine, shared (load
// average 10 to 12 while these ran), in CPU time per pairing (cpu-ms/op,
// the slowest of three runs; the wall-clock time, ns/op, was 1 to 3 times
// that with the machine this busy):
//
//	go test ./tournament -run '^$' -bench 'Swiss256$|RoundRobinSchedule'
//
//	256 entrants, rounds played by rating    round 1   4   8  40
//	  tables of 2                                  3   3   4   6 ms
//	  tables of 3                                  2   2   4  12 ms
//	  tables of 4                                  2   3   6  14 ms
//	round robin schedule, 12 to 32 entrants,
//	  tables of 3 or 4                               12 to 16 ms
//
// A round robin's schedule is searched once for each field size and
// table size in a process and kept; at tables of 2 it is the circle
// method, at once. Through every round a Swiss of 256 allows (255 at
// tables of 2, 128 at tables of 3, 85 at tables of 4), six tournaments
// each (three with results by rating, three at random), the slowest
// round took 65, 34 and 35 ms and a round 11 to 16 ms on average:
//
//	go test ./tournament -run '^$' -bench Swiss256AllRounds -benchtime 3x
//
// # As the store keeps it
//
// FromKept reads a tournament as the store keeps it (malefiz.Tournament)
// into a Tournament: each table's result comes from its game, by the
// places the game recorded (malefiz.Result.Place), an entrant who left the
// game forfeiting it and a cancelled game forfeited by everyone at the
// table. KeptTables gives a round's tables back in the store's terms.
package tournament
