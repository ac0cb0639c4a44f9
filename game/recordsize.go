package game

// MaxRecordBytes is the most bytes of a game record that the programs
// read: a record file (farkle replay, verify, analyze) or a record a
// server sends (farkle play --online). It is 64 MiB: the longest game a
// server plays (10,000 rounds, farkle serve --max-turns) of six players
// takes some 12 MB at about 40 bytes an action, so a longer record was not
// made by a game, and a reader refuses it before it costs more memory.
const MaxRecordBytes = 64 << 20
