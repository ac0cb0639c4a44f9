package dice_test

import (
	"errors"
	"fmt"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// Dice are written as a run of faces; spaces, commas and dashes may
// separate them. A Hand is the multiset of faces: the order is not kept.
func ExampleParse() {
	h, err := dice.Parse("5 1 3 1 5 6")
	if err != nil {
		panic(err)
	}
	fmt.Println(h, "-", h.N(), "dice, two 1s:", h.Count(1) == 2)

	_, err = dice.Parse("1 2 7")
	fmt.Println(errors.Is(err, dice.ErrBadThrow), err)
	// Output:
	// 1 1 3 5 5 6 - 6 dice, two 1s: true
	// true dice: bad throw: 7 is not a die face (faces are 1 to 6)
}

// A Table scores throws under one rule set: every legal keep of a throw
// with its points, the best split of the kept dice into melds.
func ExampleTable_Keeps() {
	table := dice.NewTable(rules.MustPreset("classic"))
	throw, _ := dice.Parse("111536")
	for _, k := range table.Keeps(throw) {
		fmt.Printf("keep %-9s %4d\n", k.Hand, k.Points)
	}
	fmt.Println("best:", table.Best(throw))
	// Output:
	// keep 1          100
	// keep 5           50
	// keep 1 1        200
	// keep 1 5        150
	// keep 1 1 1     1000
	// keep 1 1 5      250
	// keep 1 1 1 5   1050
	// best: 1050
}

// A throw with no legal keep is a farkle; CheckKeep says why a keep is
// refused.
func ExampleTable_CheckKeep() {
	table := dice.NewTable(rules.MustPreset("classic"))
	throw, _ := dice.Parse("223466")
	fmt.Println("farkle:", table.Farkle(throw))

	throw, _ = dice.Parse("122345")
	keep, _ := dice.Parse("122")
	fmt.Println(table.CheckKeep(throw, keep))
	// Output:
	// farkle: true
	// dice: illegal keep: 2 2 scores only as part of three of a kind
}
