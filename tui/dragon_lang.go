package tui

import (
	"strings"
	"sync"

	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/lang"
)

// The Dragon Farkle game's texts are the catalogue's (package lang):
// the event lines under dragon.*, the cards under card.*, the table, the
// line mode and the rules help under dragon.tui.*, dragon.lines.* and
// dragon.rules.*. A nil catalogue is English.

// dragonIsYou reports whether name is the catalogue's name of the person spoken
// to ("you", "du"): their turn is "your turn", "din tur".
func dragonIsYou(c *lang.Catalogue, name string) bool {
	return strings.EqualFold(name, orEnglish(c).Msg("dragon.you"))
}

// dragonYouKeys are the event texts with a form of their own for the
// player spoken to: the catalogue's KEY.you stands for KEY when that player
// is the subject ("your turn", "din tur").
var dragonYouKeys = []string{"dragon.turn", "dragon.changedBrawl", "dragon.end.unpaid", "dragon.end.over"}

var dragonYouCats sync.Map // *lang.Catalogue -> *lang.Catalogue

// dragonYouCatalogue returns c with the texts of the player spoken to in
// place of the ordinary ones (dragonYouKeys: KEY.you for KEY).
func dragonYouCatalogue(c *lang.Catalogue) *lang.Catalogue {
	return withOwnForms(c, &dragonYouCats, dragonYouSwap)
}

var dragonYouSwap = func() map[string]string {
	m := map[string]string{}
	for _, k := range dragonYouKeys {
		m[k] = k + ".you"
	}
	return m
}()

// tx is the catalogue's text of key in the model's language.
func (m *DragonModel) tx(key string, kv ...any) string { return m.lcat.Msg(key, kv...) }

// describe is the log line of e as the seat drawn sees it.
func (m *DragonModel) describe(e dragon.Event, seat int) string {
	return m.g.DescribeIn(m.lcat, []dragon.Event{e}, seat)[0]
}

// cardName and cardText are a card's words in the model's language.
func (m *DragonModel) cardName(id, name string) string { return dragon.CardName(m.lcat, id, name) }
func (m *DragonModel) cardText(id, text string) string { return dragon.CardText(m.lcat, id, text) }

// cardLine is "name — text", the card in a menu.
func (m *DragonModel) cardLine(id, name, text string) string {
	return m.cardName(id, name) + " — " + m.cardText(id, text)
}

// whose is dragonWhose for the player in seat, who is the person spoken to
// also when the seat is this terminal's at a server.
func (m *DragonModel) whose(key string, seat int, kv ...any) string {
	name := m.g.Names()[seat]
	if m.online != nil && m.online.you == seat {
		return m.lcat.Msg(key+".you", append([]any{"p", name}, kv...)...)
	}
	return dragonWhose(m.lcat, key, name, kv...)
}

// dragonWhose is the catalogue's text of key with {p} the player name, or
// of key.you when name is the person spoken to ("Your card", "Kortet
// ditt"); kv fills the text's other names.
func dragonWhose(c *lang.Catalogue, key, name string, kv ...any) string {
	c = orEnglish(c)
	if dragonIsYou(c, name) {
		return c.Msg(key+".you", append([]any{"p", name}, kv...)...)
	}
	return c.Msg(key, append([]any{"p", name}, kv...)...)
}

// grammar fixes an English line for a player called "you" (youGrammar);
// other languages need no fixing.
func (m *DragonModel) grammar(line string, names []string) string {
	if m.lcat.Code == lang.Default {
		return youGrammar(line, names)
	}
	return line
}
