package catcache

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"unsafe"

	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// magic starts every cache file; the digit is the format version, raised
// whenever the layout or what memory.Examine computes changes.
const magic = "yoimem-catalog 2\n"

// entry is one cached examination.
type entry struct {
	path  string
	stamp record.Stamp
	ex    memory.Examined
}

const (
	flagText = 1 << iota
	flagInvocable
	flagUserInvocable
	flagFacts
)

// writeEntries lays entries out as magic, count, the entries, and a
// CRC-32C of everything before it, a piece at a time: a cache of megabytes
// of text is never copied into one buffer first.
func writeEntries(w io.Writer, entries []entry) error {
	sum := crc32.New(castagnoli())
	out := io.MultiWriter(w, sum)
	var head []byte
	head = append(head, magic...)
	head = binary.AppendUvarint(head, uint64(len(entries)))
	if _, err := out.Write(head); err != nil {
		return err
	}
	for _, e := range entries {
		b := head[:0]
		b = appendString(b, e.path)
		b = binary.AppendVarint(b, e.stamp.Size)
		b = binary.AppendVarint(b, e.stamp.ModNs)
		b = binary.AppendVarint(b, e.stamp.ChangeNs)
		b = binary.AppendUvarint(b, e.stamp.Ino)
		b = append(b, flags(e.ex))
		b = appendString(b, e.ex.Kind)
		b = appendString(b, e.ex.Description)
		b = appendString(b, e.ex.Status)
		b = appendString(b, e.ex.Problem)
		b = binary.AppendUvarint(b, uint64(len(e.ex.Lower)))
		if _, err := out.Write(b); err != nil {
			return err
		}
		if _, err := out.Write(e.ex.Lower); err != nil {
			return err
		}
		head = b
	}
	_, err := w.Write(binary.LittleEndian.AppendUint32(nil, sum.Sum32()))
	return err
}

func flags(ex memory.Examined) byte {
	var f byte
	if ex.Text {
		f |= flagText
	}
	if ex.ModelInvokation {
		f |= flagInvocable
	}
	if ex.UserInvocable {
		f |= flagUserInvocable
	}
	if ex.Facts {
		f |= flagFacts
	}
	return f
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errDamaged = errors.New("damaged cache file")

// decode reads what encode wrote, entries in path order. Strings and
// lowered texts alias data, which must not change while they are in use.
func decode(data []byte) ([]entry, error) {
	if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
		return nil, errDamaged
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli()) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, errDamaged
	}
	d := decoder{b: body[len(magic):]}
	n := d.uvarint()
	if n > uint64(len(d.b)) { // every entry takes bytes
		return nil, errDamaged
	}
	out := make([]entry, 0, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		e := entry{path: d.string()}
		if len(out) > 0 && out[len(out)-1].path >= e.path {
			return nil, errDamaged // not sorted: lookups would miss
		}
		e.stamp.Size, e.stamp.ModNs, e.stamp.ChangeNs = d.varint(), d.varint(), d.varint()
		e.stamp.Ino = d.uvarint()
		f := d.byte()
		if f&^(flagText|flagInvocable|flagUserInvocable|flagFacts) != 0 {
			return nil, errDamaged
		}
		e.ex.Text, e.ex.ModelInvokation, e.ex.UserInvocable = f&flagText != 0, f&flagInvocable != 0, f&flagUserInvocable != 0
		e.ex.Facts = f&flagFacts != 0
		e.ex.Kind = d.string()
		e.ex.Description = d.string()
		e.ex.Status = d.string()
		e.ex.Problem = d.string()
		e.ex.Lower = d.bytes()
		out = append(out, e)
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, errDamaged
	}
	return out, nil
}

// decoder reads varints and length-prefixed bytes, remembering the first
// overrun instead of failing at each call.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	s := d.b[:n:n]
	d.b = d.b[n:]
	return s
}

// string aliases the bytes: no copy for thousands of small strings.
func (d *decoder) string() string {
	b := d.bytes()
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errDamaged
	}
	d.b = nil
}

// castagnoli is the CRC-32C table, made on first use (crc32 keeps it):
// building it at package init would cost every command, cached or not.
func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }
