package tokens

import (
	_ "embed" // the o200k table
	"sort"
	"sync"
)

//go:generate go run ./internal/o200kgen o200k.bin

// o200kBin is the o200k_base table as o200kgen lays it out: n, then n+1
// offsets, n ranks and the tokens' bytes, the tokens in byte order
// (little-endian uint32s). It stays in the binary's read-only data: a
// lookup reads the pages it touches (about 3 MB at most, file-backed and
// shared), and nothing is copied to the heap. The library's map literal, by
// contrast, built a map of 200,000 entries (~7 MB of heap, ~13 MB of RSS).
//
//go:embed o200k.bin
var o200kBin string

// A table finds a token's rank by binary search over o200kBin.
type table struct {
	n     int
	offs  string // n+1 uint32s
	ranks string // n uint32s
	data  string
}

// o200kTable reads the table's header on first use.
var o200kTable = sync.OnceValue(func() table {
	n := int(u32(o200kBin, 0))
	offs := o200kBin[4 : 4+4*(n+1)]
	ranks := o200kBin[4+4*(n+1) : 4+4*(n+1)+4*n]
	return table{n: n, offs: offs, ranks: ranks, data: o200kBin[4+4*(n+1)+4*n:]}
})

// u32 reads the little-endian uint32 at s[i:].
func u32(s string, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

// token returns the i-th token in byte order.
func (t *table) token(i int) string {
	return t.data[u32(t.offs, 4*i):u32(t.offs, 4*i+4)]
}

// rank returns the rank of the token spelled s, if there is one.
func (t *table) rank(s string) (uint32, bool) {
	i := sort.Search(t.n, func(i int) bool { return t.token(i) >= s })
	if i < t.n && t.token(i) == s {
		return u32(t.ranks, 4*i), true
	}
	return 0, false
}
