package engine

// Perft counts the move sequences of depth plies from p under the standard
// rules, as docs/rules.md defines it: every roll 1 to 6, every legal move of that
// roll (each barricade placement separate), a pass counted as one move when a
// roll allows none, and 0 for depth ≥ 1 once a pawn stands on the goal.
func Perft(p Position, depth int) uint64 {
	bufs := make([][]Move, depth+1)
	return perft(&p, depth, bufs)
}

func perft(p *Position, depth int, bufs [][]Move) uint64 {
	if depth == 0 {
		return 1
	}
	if p.Over() {
		return 0
	}
	var n uint64
	for roll := 1; roll <= 6; roll++ {
		moves := p.AppendMoves(bufs[depth][:0], roll, Rules{})
		bufs[depth] = moves
		if len(moves) == 0 {
			if depth == 1 {
				n++
				continue
			}
			q := *p
			q.Pass()
			n += perft(&q, depth-1, bufs)
			continue
		}
		if depth == 1 {
			n += uint64(len(moves))
			continue
		}
		for _, m := range moves {
			q := *p
			q.Apply(m)
			n += perft(&q, depth-1, bufs)
		}
	}
	return n
}

// PerftDivide returns perft(depth-1) under each first move, keyed by
// "ROLL:MOVE" (or "ROLL:pass"), for debugging a generator against another.
func PerftDivide(p Position, depth int) map[string]uint64 {
	out := map[string]uint64{}
	if depth < 1 || p.Over() {
		return out
	}
	bufs := make([][]Move, depth+1)
	for roll := 1; roll <= 6; roll++ {
		moves := p.Moves(roll, Rules{})
		if len(moves) == 0 {
			q := p
			q.Pass()
			out[itoa(roll)+":pass"] += perft(&q, depth-1, bufs)
			continue
		}
		for _, m := range moves {
			q := p
			q.Apply(m)
			out[itoa(roll)+":"+m.String()] += perft(&q, depth-1, bufs)
		}
	}
	return out
}

func itoa(n int) string { return string(rune('0' + n)) }
