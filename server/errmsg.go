package server

import "strings"

// internalPrefixes are the "pkg: " prefixes Go packages put on their
// errors. A client reads the message without them.
var internalPrefixes = map[string]bool{"store": true, "sqlite": true, "json": true, "toml": true, "server": true, "engine": true, "record": true, "bot": true}

// clientMessage returns the text of err as a network client should read
// it: the store's message without "store: ", and no package prefix or
// repeated prefix anywhere ("rules: rules: json: unknown field" becomes
// "rules: unknown field").
func clientMessage(err error) string {
	return cleanMessage(err.Error())
}

// cleanMessage drops the package prefixes of a message (see clientMessage).
func cleanMessage(msg string) string {
	parts := strings.Split(msg, ": ")
	out := parts[:0]
	for i, p := range parts {
		last := i == len(parts)-1
		if !last && internalPrefixes[p] {
			continue
		}
		if !last && len(out) > 0 && out[len(out)-1] == p {
			continue // "rules: rules: "
		}
		out = append(out, p)
	}
	return strings.Join(out, ": ")
}
