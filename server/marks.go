package server

import "unicode"

// mostMarks returns the most combining marks (accents: Unicode Mn and Me)
// that sit on one character of text, in a row after it. Names and chat
// lines allow MaxMarks: enough for any written language, too few for the
// "Zalgo" text whose stacked marks run over the lines around it.
func mostMarks(text string) int {
	most, run := 0, 0
	for _, r := range text {
		if unicode.In(r, unicode.Mn, unicode.Me) {
			run++
			most = max(most, run)
		} else {
			run = 0
		}
	}
	return most
}
