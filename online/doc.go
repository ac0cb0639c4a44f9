// Package online is the terminal's client of a farkle server (farkle play
// --online, and every SSH session of farkle serve --ssh): it signs in as
// a guest, lists the lobby, opens tables and sits at them or watches them,
// through the REST routes and WebSocket protocol of docs/API.md
// (server/wsclient). A Client is the tui.Lobby of the lobby screen; an
// opened table is a tui.Remote, which holds the whole game as the engine
// plays it: the record so far replayed with its recorded dice on
// connecting, then each update's action with the dice it threw, so the
// terminal draws it with the screen of a local game. A dropped connection
// is opened again; at the end the record is checked and saved.
package online
