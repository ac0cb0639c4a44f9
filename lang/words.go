package lang

import (
	"regexp"
	"strings"
)

// OnlyIn returns the words (of three letters or more, in lower case) of
// a's texts that b's texts never use, the {names} of values left out. In a
// text said in b's language one of them is a's left over: the tests of
// the front ends use it to find English in a Norwegian screen or error.
func OnlyIn(a, b *Catalogue) map[string]bool {
	out := wordsOf(a)
	for w := range wordsOf(b) {
		delete(out, w)
	}
	return out
}

// Word matches a word as OnlyIn counts them.
var Word = regexp.MustCompile(`\pL{3,}`)

var valueName = regexp.MustCompile(`\{[a-zA-Z]+\}`)

func wordsOf(c *Catalogue) map[string]bool {
	out := map[string]bool{}
	for _, m := range c.Messages {
		for _, w := range Word.FindAllString(strings.ToLower(valueName.ReplaceAllString(m, " ")), -1) {
			out[w] = true
		}
	}
	return out
}
