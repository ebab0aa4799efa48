package config

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/internal/suggest"
	"github.com/yoimem/git-yoimem/record"
)

// Value is the effective value of one key.
type Value struct {
	Key Key
	// Raw is the value as set; "true" for a Bool key set without "="; for
	// a List key, its items as set, joined with ", ".
	Raw    string
	Origin Origin // of the last setting
	Line   int    // line in the file for Origin.Kind File; 0 otherwise

	num   int64    // Int, Size
	flt   float64  // Float
	bl    bool     // Bool
	items []string // List: the items, clean
	set   []Item   // List: the items as set, with where
}

// Item is one item of a List key as it was set, and where.
type Item struct {
	Value  string // as set
	Origin Origin
	Line   int // line in the file for Origin.Kind File; 0 otherwise
}

// Items are a List key's items as set, each with where it was set, in
// order; nil for an empty list or any other key.
func (v Value) Items() []Item {
	if len(v.set) == 0 {
		return nil
	}
	return slices.Clone(v.set)
}

// Config holds the effective value of every known key. The typed getters
// never panic: a name that is not a known key, or a getter that does not
// match the key's type, yields the zero value. A nil or zero *Config holds
// the defaults.
type Config struct {
	values []Value // in the order of Keys
}

// Warning is a problem that does not stop resolution, such as an unknown
// (misspelt?) yoimem.* key.
type Warning struct {
	Entry   Entry
	Message string
}

// String returns the warning with its origin:
// ".yoi/config:3: unknown key yoimem.search.maxResult; did you mean yoimem.search.maxResults?"
func (w Warning) String() string {
	return w.Entry.where() + ": " + w.Message
}

// ValueError reports a value that does not fit its key's type.
type ValueError struct {
	Entry    Entry  // the offending setting
	Key      Key    // the key it sets
	Expected string // what the type takes, e.g. "a whole number"
}

// Error names the origin, the key, the value and what was expected:
// `.yoi/config:3: yoimem.search.maxResults = "lots": expected a whole number`.
func (e *ValueError) Error() string {
	if e.Entry.NoValue {
		return fmt.Sprintf("%s: %s has no value: expected %s", e.Entry.where(), e.Key.Name, e.Expected)
	}
	return fmt.Sprintf("%s: %s = %s: expected %s", e.Entry.where(), e.Key.Name, quote.Value(e.Entry.Value), e.Expected)
}

// Resolve computes the effective configuration from the entries of each
// layer: file (.yoi/config, see [ParseFile]), git (see [FromGit]) and
// flags (see [ParseFlag]). A later layer wins over an earlier one, and the
// last entry for a key within a layer wins, as in git. Keys without an
// entry keep their defaults.
//
// Every entry of a known key is checked against the key's type, even one a
// later entry overrides, so that a bad committed value is reported to
// everyone. The error lists every bad value (see [ValueError]), one per
// line, and the *Config is then nil. Entries of unknown keys become
// warnings that suggest the closest known key.
func Resolve(file, git, flags []Entry) (*Config, []Warning, error) {
	keys := Keys()
	c := &Config{values: defaultValues(keys)}
	var warnings []Warning
	var errs []error
	for _, layer := range [][]Entry{file, git, flags} {
		for _, e := range layer {
			i := index(e.Name)
			if i < 0 {
				warnings = append(warnings, Warning{Entry: e, Message: unknownKeyMessage(e.Name)})
				continue
			}
			if e.Origin.Kind == File {
				if why := untrusted(keys[i].Name, e.Value); why != "" {
					warnings = append(warnings, Warning{Entry: e, Message: why})
					continue
				}
			}
			v, err := parseValue(keys[i], e)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if keys[i].Type == List {
				v = c.values[i].extend(v)
			}
			c.values[i] = v
		}
	}
	if len(errs) > 0 {
		return nil, warnings, errors.Join(errs...)
	}
	return c, warnings, nil
}

// Defaults returns the configuration with every key at its default.
func Defaults() *Config {
	return &Config{values: defaultValues(Keys())}
}

func defaultValues(keys []Key) []Value {
	values := make([]Value, len(keys))
	for i, k := range keys {
		// The defaults are valid; the tests check it.
		v, _ := parseValue(k, Entry{Name: k.Name, Value: k.Default, Origin: Origin{Kind: Default}})
		values[i] = v
	}
	return values
}

// parseValue checks e's value against k's type.
func parseValue(k Key, e Entry) (Value, error) {
	v := Value{Key: k, Raw: e.Value, Origin: e.Origin, Line: e.Line}
	fail := func(expected string) (Value, error) {
		return Value{}, &ValueError{Entry: e, Key: k, Expected: expected}
	}
	if e.NoValue {
		if k.Type != Bool {
			return fail(typeNoun(k.Type))
		}
		v.Raw, v.bl = "true", true
		return v, nil
	}
	switch k.Type {
	case List:
		if strings.TrimSpace(e.Value) == "" {
			return v, nil // clears the list
		}
		item, err := checkItem(e.Value)
		if err != nil {
			return fail(typeNoun(k.Type) + ": " + err.Error())
		}
		v.items, v.set = []string{item}, []Item{{Value: e.Value, Origin: e.Origin, Line: e.Line}}
	case Int, Size:
		n, problem := parseInt(e.Value)
		what := "a whole number"
		if k.Type == Size {
			what = "a size in bytes"
		}
		switch problem {
		case badSyntax:
			return fail(typeNoun(k.Type))
		case negative:
			return fail(what + " >= 0")
		case tooLarge:
			return fail(fmt.Sprintf("%s no larger than %d", what, int64(math.MaxInt64)))
		}
		v.num = n
	case Float:
		f, problem := parseFloat(e.Value)
		if problem != "" {
			return fail(problem)
		}
		v.flt = f
	case Bool:
		b, ok := parseBool(e.Value)
		if !ok {
			return fail(typeNoun(Bool))
		}
		v.bl = b
	}
	return v, nil
}

// typeNoun says what a type takes, after "expected".
func typeNoun(t Type) string {
	switch t {
	case Int:
		return "a whole number"
	case Size:
		return "a size in bytes, such as 262144, 256k or 1m"
	case Float:
		return "a number"
	case Bool:
		return "true or false (or yes/no, on/off, 1/0)"
	case List:
		return "a record path or pattern under .yoi/, such as knowledge/retry.md or memory/decisions/db-*.md"
	}
	return "a string"
}

// checkItem checks one item of a List key and returns its clean form.
// yoimem.consolidate.locked is the only list: its items are lock patterns.
func checkItem(value string) (string, error) {
	return record.CleanLock(value)
}

// extend adds a List setting's item to the list so far; a setting without
// an item (an empty value) starts the list again.
func (v Value) extend(next Value) Value {
	if len(next.items) == 0 {
		return next
	}
	next.items = append(slices.Clone(v.items), next.items...)
	next.set = append(slices.Clone(v.set), next.set...)
	raws := make([]string, len(next.set))
	for i, it := range next.set {
		raws[i] = it.Value
	}
	next.Raw = strings.Join(raws, ", ")
	return next
}

// Why parseInt rejects a value.
const (
	intOK = iota
	badSyntax
	negative
	tooLarge
)

// parseInt parses a decimal whole number >= 0 with an optional k, m or g
// suffix (base 1024), and says why when it cannot.
func parseInt(s string) (int64, int) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k', 'K':
			mult = 1 << 10
		case 'm', 'M':
			mult = 1 << 20
		case 'g', 'G':
			mult = 1 << 30
		}
		if mult > 1 {
			s = s[:n-1]
		}
	}
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, badSyntax
	}
	if len(digits) != len(s) {
		return 0, negative
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return 0, tooLarge
	}
	return n * mult, intOK
}

// parseFloat parses a finite number >= 0. On failure it returns what was
// expected instead.
func parseFloat(s string) (float64, string) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	switch {
	case errors.Is(err, strconv.ErrRange) || err == nil && (math.IsInf(f, 0) || math.IsNaN(f)):
		return 0, "a finite number"
	case err != nil:
		return 0, "a number"
	case f < 0:
		return 0, "a number >= 0"
	}
	return f, ""
}

// parseBool parses git's boolean words; the empty value is false, as in
// git.
func parseBool(s string) (b, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "yes", "on", "1":
		return true, true
	case "false", "no", "off", "0", "":
		return false, true
	}
	return false, false
}

// unknownKeyMessage describes an unknown key and suggests known ones.
func unknownKeyMessage(name string) string {
	msg := "unknown key " + quote.Short(name)
	if !isYoimem(name) {
		msg += `: git yoimem settings start with "yoimem."`
	}
	s := SuggestKeys(name)
	if len(s) == 0 {
		return msg
	}
	msg += "; did you mean " + suggest.OrList(s) + "?"
	if len(s) == 1 && strings.EqualFold(s[0], name) {
		msg += " (subsection names are case-sensitive)"
	}
	return msg
}

// SuggestKeys returns the known keys an unknown name was probably meant
// to be: the key it names without "yoimem.", the same key with the
// subsection in another case, the keys with the same last part in another
// section, or else the keys the fewest edits away, if few enough. nil when
// none is close.
func SuggestKeys(name string) []string {
	if !isYoimem(name) {
		if i := index("yoimem." + name); i >= 0 {
			return []string{Keys()[i].Name}
		}
		return nil
	}
	keys := Keys()
	for _, k := range keys {
		if strings.EqualFold(k.Name, name) {
			return []string{k.Name}
		}
	}
	var out []string
	if _, _, key, ok := splitName(name); ok {
		for _, k := range keys {
			if _, _, kk, _ := splitName(k.Name); strings.EqualFold(kk, key) {
				out = append(out, k.Name)
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	return suggest.Within(name, names, max(2, len(name)/5))
}

// valueList returns the values in registry order; a nil or zero Config has
// the defaults.
func (c *Config) valueList() []Value {
	if c == nil || len(c.values) == 0 {
		return defaultValues(Keys())
	}
	return c.values
}

// Get returns the effective value of the key name refers to (see
// [Lookup]), and false when no known key has that name.
func (c *Config) Get(name string) (Value, bool) {
	i := index(name)
	if i < 0 {
		return Value{}, false
	}
	return c.valueList()[i], true
}

// String returns the value of name as set, for a key of any type; "" for
// an unknown name.
func (c *Config) String(name string) string {
	v, _ := c.Get(name)
	return v.Raw
}

// Int returns the value of an Int or Size key; 0 for any other name.
func (c *Config) Int(name string) int64 {
	v, ok := c.Get(name)
	if !ok || v.Key.Type != Int && v.Key.Type != Size {
		return 0
	}
	return v.num
}

// Float returns the value of a Float key; 0 for any other name.
func (c *Config) Float(name string) float64 {
	v, ok := c.Get(name)
	if !ok || v.Key.Type != Float {
		return 0
	}
	return v.flt
}

// List returns the items of a List key, clean, in the order they were
// set; nil for any other name.
func (c *Config) List(name string) []string {
	v, ok := c.Get(name)
	if !ok || v.Key.Type != List || len(v.items) == 0 {
		return nil
	}
	return slices.Clone(v.items)
}

// Locks returns yoimem.consolidate.locked: the records no consolidation
// may change, besides those read-only in the working tree.
func (c *Config) Locks() record.Locks {
	return record.Locks(c.List(KeyConsolidateLocked))
}

// Bool returns the value of a Bool key; false for any other name.
func (c *Config) Bool(name string) bool {
	v, ok := c.Get(name)
	if !ok || v.Key.Type != Bool {
		return false
	}
	return v.bl
}

// All returns the effective value of every key, in the order of [Keys],
// for display by git yoimem config. The slice is the caller's.
func (c *Config) All() []Value {
	return append([]Value(nil), c.valueList()...)
}

// untrusted says why a committed .yoi/config may not set a key to a value,
// or "". The file comes with every clone and pull, so it must not run a
// command on a teammate's machine (a command: model), read a file of its
// choosing (replay:), or send their API key and sessions to a server of
// its choosing (a base URL). Those are set with git config or a flag.
func untrusted(key, value string) string {
	switch key {
	case KeyLLMAnthropicBaseURL, KeyLLMOpenAIBaseURL:
		return "ignored in the committed file: a base URL receives your API key and sessions; set it with git config " + key
	case KeyExtractModel, KeyConsolidateModel:
		if p, _, _ := strings.Cut(strings.TrimSpace(value), ":"); p == "command" || p == "replay" {
			return "ignored in the committed file: a " + p + ": model runs or reads what the file names on every machine; set it with git config " + key
		}
	}
	return ""
}
