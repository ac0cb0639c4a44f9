// Package webtest holds the web game's tests in a real browser: the
// server's pages driven in headless Chromium (internal/browsertest)
// against a real server on a SQLite file (internal/servertest). They live
// apart from package server's own tests so that each package's run stays
// well within go test's default timeout on a small machine, and the two
// packages run side by side.
package webtest
