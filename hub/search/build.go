package search

import "math"

// build indexes docs: each tool's fields are split into terms, and the
// postings and field lengths BM25F needs are counted.
func build(docs []Doc, p Params) *Index {
	ix := &Index{byName: make(map[string]int, len(docs)), postings: map[string][]posting{}, params: p}
	a := analyzer{terms: map[string]string{}, tf: map[string]*[numFields]uint16{}}
	for _, d := range docs {
		if _, dup := ix.byName[d.Name]; dup {
			continue
		}
		id := int32(len(ix.docs))
		ix.byName[d.Name] = int(id)
		ix.docs = append(ix.docs, d)
		lens := a.count(d)
		for t, counts := range a.tf {
			ix.postings[t] = append(ix.postings[t], posting{doc: id, tf: *counts})
		}
		clear(a.tf)
		ix.lens = append(ix.lens, lens)
		for f := range numFields {
			ix.avgLen[f] += float64(lens[f])
		}
	}
	for f := range numFields {
		if len(ix.docs) > 0 {
			ix.avgLen[f] /= float64(len(ix.docs))
		}
	}
	ix.schemas = make([]compiledSchema, len(ix.docs))
	return ix
}

// An analyzer counts the terms of one tool's fields at a time, stemming
// each distinct word once.
type analyzer struct {
	terms map[string]string // word → term; "" for a stop word
	tf    map[string]*[numFields]uint16
	lens  [numFields]float32
	field int
	add   func(string)
}

// count fills a.tf with d's term frequencies, field by field, and returns
// the fields' lengths in terms.
func (a *analyzer) count(d Doc) [numFields]float32 {
	a.lens = [numFields]float32{}
	if a.add == nil {
		a.add = a.word
	}
	a.text(fieldName, d.Tool)
	a.text(fieldService, d.Service)
	a.text(fieldLead, d.Title)
	a.text(fieldLead, Summary(d.Description))
	a.text(fieldDescription, d.Description)
	names, descs := paramText(d.InputSchema)
	for _, n := range names {
		a.text(fieldParamName, n)
	}
	for _, t := range descs {
		a.text(fieldParamDescription, t)
	}
	return a.lens
}

func (a *analyzer) text(field int, s string) {
	a.field = field
	eachWord(s, a.add)
}

func (a *analyzer) word(w string) {
	t, seen := a.terms[w]
	if !seen {
		t, _ = term(w)
		a.terms[w] = t
	}
	if t == "" {
		return
	}
	counts := a.tf[t]
	if counts == nil {
		counts = new([numFields]uint16)
		a.tf[t] = counts
	}
	if counts[a.field] < math.MaxUint16 {
		counts[a.field]++
	}
	a.lens[a.field]++
}
