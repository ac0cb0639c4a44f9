package servertest

type RatingChange struct {
	Table, Player, Name              string
	Before, After, Change, Deviation float64
	Bot                              bool
}

type RatedTable struct {
	ID      string
	Status  string
	Rated   string
	Unrated string
	Winners []int
	Scores  []int
	Ratings []RatingChange
}
