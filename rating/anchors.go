package rating

//go:generate go run ./anchorgen -out anchors_gen.go

// Anchor returns the fixed rating of a bot level in family f: the ordinary
// bots' for Ordinary and House (house rules have no simulations of their
// own; the bots are the same players), the Dragon Farkle bots' for Dragon.
// ok is false for an unknown level.
func Anchor(f Family, level string) (r Rating, ok bool) {
	if f == House {
		f = Ordinary
	}
	r, ok = anchors[f][level]
	return r, ok
}

// AnchorBase is the level of each family rated Initial, the rating a new
// player starts at: "steady", the sensible club player, for the ordinary
// game; "simple" for Dragon Farkle.
var AnchorBase = map[Family]string{Ordinary: "steady", Dragon: "simple"}
