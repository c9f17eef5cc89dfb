package tournament

// matching is a matching in a general graph, kept maximum by Edmonds'
// blossom algorithm: the pairs of a Swiss round at tables of 2, where an
// edge joins two players who have not met.
type matching struct {
	adj   [][]int // adj[u]: the vertices u may be paired with, in order
	gone  []bool  // vertices taken out of the graph
	mate  []int   // mate[v], or -1
	size  int     // edges in the matching
	outer []bool  // after a search: the vertices reached at even distance

	// the search's scratch
	parent, base  []int
	blossom, seen []bool
	queue         []int
}

func newMatching(edge [][]bool) *matching {
	n := len(edge)
	m := &matching{gone: make([]bool, n), mate: make([]int, n),
		outer: make([]bool, n), parent: make([]int, n), base: make([]int, n),
		blossom: make([]bool, n), seen: make([]bool, n)}
	edges := 0
	for v := range m.mate {
		m.mate[v] = -1
		for _, ok := range edge[v] {
			edges += boolInt(ok)
		}
	}
	m.adj = make([][]int, n)
	all := make([]int, 0, edges) // the lists, one after another
	for v := range edge {
		start := len(all)
		for u, ok := range edge[v] {
			if ok {
				all = append(all, u)
			}
		}
		m.adj[v] = all[start:len(all):len(all)]
	}
	return m
}

// match adds the edge u–v to the matching; both must be free.
func (m *matching) match(u, v int) {
	m.mate[u], m.mate[v] = v, u
	m.size++
}

// maximize augments from every free vertex once: the matching is then
// maximum (a vertex from which no augmenting path starts never gains one
// while the matching grows).
func (m *matching) maximize() {
	for v := range m.mate {
		if m.mate[v] == -1 && !m.gone[v] {
			m.augment(v)
		}
	}
}

// augment looks for an augmenting path from the free vertex root and
// flips it. When there is none, outer holds the vertices that an even
// alternating path reaches from root: those that some maximum matching
// leaves free instead of root.
func (m *matching) augment(root int) bool {
	v := m.search(root)
	if v < 0 {
		return false
	}
	for v >= 0 {
		pv := m.parent[v]
		next := m.mate[pv]
		m.mate[v], m.mate[pv] = pv, v
		v = next
	}
	m.size++
	return true
}

// search is Edmonds' search from root; it returns the free end of an
// augmenting path, whose steps back are parent and mate, or -1.
func (m *matching) search(root int) int {
	n := len(m.mate)
	for i := range n {
		m.outer[i], m.parent[i], m.base[i] = false, -1, i
	}
	m.outer[root] = true
	m.queue = append(m.queue[:0], root)
	for head := 0; head < len(m.queue); head++ {
		v := m.queue[head]
		for _, to := range m.adj[v] {
			if m.gone[to] || m.base[v] == m.base[to] || m.mate[v] == to {
				continue
			}
			if to == root || m.mate[to] >= 0 && m.parent[m.mate[to]] >= 0 {
				// An odd cycle: contract the blossom into its base.
				b := m.commonBase(v, to)
				clear(m.blossom)
				m.markPath(v, b, to)
				m.markPath(to, b, v)
				for i := range n {
					if m.blossom[m.base[i]] {
						m.base[i] = b
						if !m.outer[i] {
							m.outer[i] = true
							m.queue = append(m.queue, i)
						}
					}
				}
			} else if m.parent[to] < 0 {
				m.parent[to] = v
				if m.mate[to] < 0 {
					return to
				}
				m.outer[m.mate[to]] = true
				m.queue = append(m.queue, m.mate[to])
			}
		}
	}
	return -1
}

// commonBase is the base of the blossom that the edge a–b closes.
func (m *matching) commonBase(a, b int) int {
	clear(m.seen)
	for {
		a = m.base[a]
		m.seen[a] = true
		if m.mate[a] < 0 {
			break
		}
		a = m.parent[m.mate[a]]
	}
	for {
		b = m.base[b]
		if m.seen[b] {
			return b
		}
		b = m.parent[m.mate[b]]
	}
}

// markPath marks the blossom's vertices from v down to base b and points
// their parents along the cycle.
func (m *matching) markPath(v, b, child int) {
	for m.base[v] != b {
		m.blossom[m.base[v]], m.blossom[m.base[m.mate[v]]] = true, true
		m.parent[v] = child
		child = m.mate[v]
		v = m.parent[m.mate[v]]
	}
}

// remove takes u and v out of the graph, unmatching them, and re-augments
// from the mates they leave free: the matching is then maximum in what is
// left (an augmenting path there must end at a freed mate), and size says
// how large. undo puts the graph and the matching back as they were.
func (m *matching) remove(u, v int) (undo func()) {
	mate, size := append([]int(nil), m.mate...), m.size
	var freed []int
	for _, x := range []int{u, v} {
		if y := m.mate[x]; y >= 0 {
			m.mate[x], m.mate[y] = -1, -1
			m.size--
			if y != u && y != v {
				freed = append(freed, y)
			}
		}
		m.gone[x] = true
	}
	for _, y := range freed {
		if m.mate[y] < 0 {
			m.augment(y)
		}
	}
	return func() {
		copy(m.mate, mate)
		m.size = size
		m.gone[u], m.gone[v] = false, false
	}
}
