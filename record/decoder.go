package record

import (
	"fmt"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

// Decoder decodes records one after another, reusing its memory: the
// node tree, the line table, the Document and the Record of one call are
// those of the next. It is for readers that drop each record before
// reading the next (lint reads 10,000 of them); whatever else keeps
// records uses Decode.
//
// A Decoder is not safe for concurrent use; the zero Decoder is ready.
type Decoder struct {
	fast    fastParser
	arena   nodeArena
	doc     Document
	rec     Record
	sources []Source
}

// Decode is the package's Decode, with two differences: the Record, its
// Document and everything in them (strings included) are valid only until
// the next call, and they share content's memory, which must not change
// meanwhile. Copy what must outlive the call (strings.Clone).
func (d *Decoder) Decode(path string, content []byte) (*Record, []FieldError, error) {
	loc := Classify(path)
	if loc.Area != AreaRecord {
		return nil, nil, fmt.Errorf("%s is not a record path", path)
	}
	d.fast.arena = &d.arena
	if d.sources == nil {
		d.sources = make([]Source, 0, 8)
	}
	if err := d.doc.parse(content, d.parseFast); err != nil {
		return nil, nil, err
	}
	dc := decoder{doc: &d.doc, sourceBuf: d.sources}
	dc.fill(&d.rec, loc.Kind)
	d.sources = dc.sourceBuf
	d.rec.Path, d.rec.Slug = path, loc.Slug
	return &d.rec, dc.errs, nil
}

// parseFast is fastParse on the decoder's memory; the tree's strings
// share data's memory instead of a copy of it.
func (d *Decoder) parseFast(data []byte) (*yaml.Node, bool) {
	return d.fast.parse(data, unsafe.String(unsafe.SliceData(data), len(data)))
}
