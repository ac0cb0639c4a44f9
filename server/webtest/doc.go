// Package webtest holds the web game's tests in a real browser: the
// server's pages driven in headless Chromium (internal/browsertest)
// against a real server on a SQLite file (internal/servertest). Its tests
// are those of the table pages (playing, hints, the farkle moment, Dragon
// Farkle, replays, local and offline games); its helpers (helpers.go) are
// shared with package site's tests of the rest of the site. Both live
// apart from package server's own tests, so that each package's run stays
// well within go test's default timeout on a small machine, and the three
// run side by side.
package webtest
