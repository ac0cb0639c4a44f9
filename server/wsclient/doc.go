// Package wsclient is a Go client of the web game's REST routes and
// WebSocket protocol (docs/API.md). Tests, benchmarks and bots written
// outside the server use it; it checks nothing the server does not.
package wsclient
