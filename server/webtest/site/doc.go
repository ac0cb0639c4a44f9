// Package site holds the web game's tests in a real browser of the pages
// around the tables: accounts and sessions, friends, invitations,
// tournaments, ratings, moderation, settings, the explorer and the
// Norwegian words of every page. Package webtest holds the tests of the
// table pages and the helpers both share; the two run side by side.
package site
