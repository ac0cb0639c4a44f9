package main

// dragonPreset is the --rules name of Dragon Farkle. Dragon Farkle has its
// own package and rule set; a rule file is a Dragon Farkle file when it says
// base = "dragon" (loadVariant).
const dragonPreset = "dragon"

// dragonCommands are the commands that play or describe Dragon Farkle.
const dragonCommands = "rules, score, odds, sim, play, replay, verify, analyze"

func dragonUnsupported(cmd string) error {
	return usagef("--rules dragon: farkle %s does not play Dragon Farkle (Dragon Farkle works with: %s)", cmd, dragonCommands)
}
