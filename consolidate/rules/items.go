package rules

import (
	"cmp"
	"strings"
	"time"
)

// An item is a list line the engine writes under "## Tried" and the
// summary's "## Recent work": "- <date> <what happened>", the date the
// day the entry was staged (left out when unknown). Items are the same
// when they say the same thing, whatever their date.

// dateLayout is an item's date.
const dateLayout = "2006-01-02"

// itemLine is an item for text staged at t.
func itemLine(t time.Time, text string) string {
	if t.IsZero() {
		return "- " + text
	}
	return "- " + t.UTC().Format(dateLayout) + " " + text
}

func isItem(line string) bool { return strings.HasPrefix(line, "- ") }

// itemParts splits an item into its date ("" when it has none) and what
// it says.
func itemParts(line string) (date, text string) {
	text = strings.TrimPrefix(line, "- ")
	if len(text) > len(dateLayout) && text[len(dateLayout)] == ' ' {
		if _, err := time.Parse(dateLayout, text[:len(dateLayout)]); err == nil {
			return text[:len(dateLayout)], text[len(dateLayout)+1:]
		}
	}
	return "", text
}

// itemKey is what an item says, without its date.
func itemKey(line string) string {
	_, text := itemParts(line)
	return text
}

// compareItems orders items oldest first: by date (undated first), then
// by text, so that the order is the same whatever order they came in.
func compareItems(a, b string) int {
	da, ta := itemParts(a)
	db, tb := itemParts(b)
	return cmp.Or(strings.Compare(da, db), strings.Compare(ta, tb))
}
