package tokens

import (
	"sync"

	"github.com/dlclark/regexp2/v2"
	// The codec package registers the code regexp2cg generated for the
	// o200k split pattern below (its init; the table is not linked: this
	// package never calls NewO200kBase), so the pattern runs compiled.
	_ "github.com/tiktoken-go/tokenizer/codec"
)

// o200kSplit is o200k_base's pre-tokenizer, as tiktoken-go/tokenizer
// v0.10.0 spells it (codec.NewO200kBase): the text is cut into pieces
// first, and byte-pair merges happen within a piece.
const o200kSplit = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`

var splitter = sync.OnceValue(func() *regexp2.Regexp {
	return regexp2.MustCompile(o200kSplit, regexp2.None)
})

// count returns the number of o200k_base tokens in text: each piece of
// the split is one token when the table holds it, else the parts that
// byte-pair merging leaves.
func count(text string) int {
	t := o200kTable()
	re := splitter()
	n := 0
	// regexp2's only error is a timeout, which is never set.
	m, _ := re.FindStringMatch(text)
	for m != nil {
		piece := m.String()
		if _, ok := t.rank(piece); ok {
			n++
		} else {
			n += merges(&t, piece)
		}
		m, _ = re.FindNextMatch(m)
	}
	return n
}

// noRank marks a boundary that cannot merge with the next one.
const noRank = ^uint32(0)

// A node is a part boundary in a doubly linked list; rank is the rank of
// the token that merging this part with the next one would form.
type node struct {
	prev, next int32
	rank       uint32
}

// merges returns the number of tokens byte-pair encoding makes of piece:
// the pair of adjacent parts whose merge has the lowest rank merges
// first, the leftmost among equals, until no pair is in the table. This
// is the library's mergePairsHeap (equal to its quadratic scan for short
// pieces), counting instead of listing the parts.
func merges(t *table, piece string) int {
	n := int32(len(piece))
	nodes := make([]node, n+1)
	for i := range nodes {
		nodes[i] = node{prev: int32(i) - 1, next: int32(i) + 1, rank: noRank}
	}
	nodes[n].next = -1
	rankOf := func(i int32) uint32 {
		j := nodes[i].next
		if j < 0 {
			return noRank
		}
		k := nodes[j].next
		if k < 0 {
			return noRank
		}
		if r, ok := t.rank(piece[i:k]); ok {
			return r
		}
		return noRank
	}
	var h mergeHeap
	for i := int32(0); i+2 <= n; i++ {
		if r := rankOf(i); r != noRank {
			nodes[i].rank = r
			h = append(h, candidate{r, i})
		}
	}
	h.init()
	parts := int(n)
	for len(h) > 0 {
		top := h.pop()
		i := top.at
		if nodes[i].rank != top.rank {
			continue // stale: the pair changed since it was pushed
		}
		j := nodes[i].next
		k := nodes[j].next
		nodes[j].rank = noRank
		nodes[i].next = k
		if k >= 0 {
			nodes[k].prev = i
		}
		parts--
		for _, b := range [2]int32{i, nodes[i].prev} {
			if b < 0 {
				continue
			}
			nodes[b].rank = rankOf(b)
			if nodes[b].rank != noRank {
				h.push(candidate{nodes[b].rank, b})
			}
		}
	}
	return parts
}

// A candidate is a pair that may merge: its rank and its left boundary.
type candidate struct {
	rank uint32
	at   int32
}

// A mergeHeap is a min-heap of candidates by rank, then position.
type mergeHeap []candidate

func (h mergeHeap) less(a, b int) bool {
	if h[a].rank != h[b].rank {
		return h[a].rank < h[b].rank
	}
	return h[a].at < h[b].at
}

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(c candidate) {
	*h = append(*h, c)
	h.up(len(*h) - 1)
}

func (h *mergeHeap) pop() candidate {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

func (h mergeHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (h mergeHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
