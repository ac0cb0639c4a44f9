// Package explore turns the exact solutions of package solve into what the
// strategy explorer shows: the win-probability map over the two scores at the
// start of a turn (WinMap), the bank-or-throw map of a turn in progress
// (TurnMap), the bank thresholds of the solo optimum and of the duel
// (SoloThresholds, DuelThresholds), every choice of any position with what
// each bot would do there (Inspect), rule sets side by side (Compare) and
// the results published in the literature beside this project's values
// (Published).
//
// It computes data only; front ends draw it: the text renderers of this
// package (Text, and Cursor for farkle explore --cursor), the charts of
// package explore/chart (farkle explore --svg/--png) and the web page of
// package server. Solver results come from a Source (a *solved.Tables), so
// every solve goes through its scheduler and limits.
package explore
