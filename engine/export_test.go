package engine

// HistoryLen returns how many records g has, without History's copy of
// them (TestPositionsReplayTheGame asks after every step).
func HistoryLen(g *Game) int { return len(g.history) }
