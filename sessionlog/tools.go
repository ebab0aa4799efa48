package sessionlog

import "strings"

// block holds the raw values of an Anthropic-style content block.
type block struct {
	typ, text, id, name, input, toolUseID, content, isError []byte
}

func readBlock(raw []byte) block {
	var b block
	o := newObject(raw)
	for o.next() {
		switch v := o.val; string(o.key) {
		case "type":
			b.typ = v
		case "text":
			b.text = v
		case "id":
			b.id = v
		case "name":
			b.name = v
		case "input":
			b.input = v
		case "tool_use_id":
			b.toolUseID = v
		case "content":
			b.content = v
		case "is_error":
			b.isError = v
		}
	}
	return b
}

// resultOf summarizes tool output given as a string or as content blocks,
// and measures it: text decoded, other blocks (images) as written.
func resultOf(content []byte) (summary string, size int) {
	if isString(content) {
		return summaryOf(content), decodedLen(content)
	}
	a := newArray(content)
	for a.next() {
		b := readBlock(a.val)
		if !isString(b.text) {
			size += len(a.val)
			continue
		}
		size += decodedLen(b.text)
		if summary == "" {
			summary = summaryOf(b.text)
		}
	}
	return summary, size
}

// inputKeys are the tool input fields that best say what a call does, most
// telling first.
var inputKeys = [...]string{
	"command", "cmd", "file_path", "notebook_path", "pattern", "path", "url",
	"query", "description", "prompt", "skill", "subject", "plan",
}

// inputSummary is a short display of a tool call's input object: its most
// telling field, else the start of the object as written.
func inputSummary(input []byte) string {
	var found [len(inputKeys)][]byte
	o := newObject(input)
	for o.next() {
		for i, k := range inputKeys {
			if string(o.key) == k && found[i] == nil {
				found[i] = o.val
			}
		}
	}
	for _, v := range found {
		switch {
		case isString(v):
			return summaryOf(v)
		case isArray(v):
			return summarize(joinArgs(v), false)
		}
	}
	return rawSummary(input)
}

// joinArgs joins an argv array's strings with spaces, about as much of it
// as a summary shows.
func joinArgs(v []byte) string {
	var b strings.Builder
	a := newArray(v)
	for a.next() && b.Len() <= SummaryBytes {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		s, _ := stringPrefix(a.val, SummaryBytes+1)
		b.WriteString(s)
	}
	return b.String()
}

// rawSummary shows the start of a value as written.
func rawSummary(v []byte) string {
	if len(v) == 0 || string(v) == "{}" || string(v) == "null" {
		return ""
	}
	n := min(len(v), SummaryBytes+1)
	return summarize(validString(v[:cutRunes(v, n)]), n < len(v))
}
