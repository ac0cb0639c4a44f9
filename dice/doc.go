// Package dice holds throws and keeps as face counts (Hand), the 923
// multisets of 1..6 dice, parsing of throws, and the keep Table: every legal
// keep of every throw with its points, built once per rule set so that a
// lookup is a table index.
package dice
