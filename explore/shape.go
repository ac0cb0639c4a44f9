package explore

// MapShape is the size of the maps of a rule set's duel table, known
// before the table is: a page keeps their places while it is prepared.
type MapShape struct {
	WinScores  int `json:"win_scores"`  // scores per axis of the win map
	TurnTotals int `json:"turn_totals"` // columns of the turn map (totals)
	Dice       int `json:"dice"`        // rows of the turn map, lines of the duel thresholds
}

// ShapeOf returns the shape of the maps NewWinMap (cells) and NewTurnMap
// (maxTotal, step) draw for rules of target, unit and dice.
func ShapeOf(target, unit, dice, cells, maxTotal, step int) MapShape {
	return MapShape{WinScores: len(axis(roundStep(target, cells, unit), target)), TurnTotals: turnColumns(maxTotal, step), Dice: dice}
}
