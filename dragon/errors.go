package dragon

import "errors"

// Sentinel errors; every error of the package wraps one of them.
var (
	ErrInvalid   = errors.New("dragon: invalid rules")
	ErrCards     = errors.New("dragon: bad card file")
	ErrIllegal   = errors.New("dragon: illegal action")
	ErrBadAction = errors.New("dragon: bad action")
	ErrGameOver  = errors.New("dragon: the game is over")
	ErrPlayers   = errors.New("dragon: bad players")
	ErrNotTurn   = errors.New("dragon: not your turn")
)
