package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	yrec "github.com/yoimem/git-yoimem/record"
)

// TestDecoderEqualsDecode: one record.Decoder reading a generated corpus
// file after file (as a lint worker does) gives for each the record,
// field errors and error record.Decode gives.
func TestDecoderEqualsDecode(t *testing.T) {
	for _, shapes := range []string{shapesMixed, shapesCanonical} {
		t.Run(shapes, func(t *testing.T) {
			files, _ := generate(config{n: 3000, seed: 11, invocable: 300, shapes: shapes})
			var d yrec.Decoder
			decoded := 0
			for _, f := range files {
				path := strings.TrimPrefix(f.path, ".yoi/")
				want, wantErrs, wantErr := yrec.Decode(path, f.data)
				got, gotErrs, gotErr := d.Decode(path, f.data)
				if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(gotErrs, wantErrs) {
					t.Fatalf("%s: Decoder gives %v %v, Decode %v %v", path, gotErrs, gotErr, wantErrs, wantErr)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: Decoder's record differs from Decode's:\n got %+v\nwant %+v", path, got, want)
				}
				if got != nil && len(gotErrs) == 0 {
					decoded++
				}
			}
			if decoded < len(files)*9/10 {
				t.Fatalf("only %d of %d files decoded cleanly", decoded, len(files))
			}
		})
	}
}
