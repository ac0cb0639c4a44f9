package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// LobbyTable is a table of a server's lobby.
type LobbyTable struct {
	ID     string
	Status string // "waiting" or "playing"
	Rules  string // the rules' name
	Seats  []LobbySeat
	Clock  time.Duration // the time for each decision; 0: none
}

// LobbySeat is a seat of a lobby table.
type LobbySeat struct {
	Name string
	Bot  string
	Free bool
	Mine bool // the player of this terminal sits there
}

// Lobby is a server's lobby as the terminal uses it (package online).
type Lobby interface {
	// Tables lists the open tables, latest first.
	Tables(ctx context.Context) ([]LobbyTable, error)
	// Create opens a table: the first person's seat is this player's, the
	// other people's seats are free for friends, bots play at the server.
	Create(ctx context.Context, t NewTable) (string, error)
	// Open sits at a table (or watches it, with watch or when it is full)
	// and connects to it.
	Open(ctx context.Context, id string, watch bool) (Remote, error)
	// Link is the table's link for friends.
	Link(id string) string
	// Rematch asks for (or, when asked already, finds) the rematch of the
	// finished table id and returns the new table's id.
	Rematch(ctx context.Context, id string) (string, error)
}

// LobbyOptions configure the lobby screen.
type LobbyOptions struct {
	Options        // of the games played from it (Advisor, Now); Rules start the setup screen (zero: the default preset)
	Server  string // the server's address, for the header
	Player  string // the player's name
	// Table opens this table at once (joining it, or watching it with
	// Watch) instead of showing the lobby first.
	Table string
	Watch bool
	// Refresh is how often the list is read again (0: every 5 s).
	Refresh time.Duration
}

// LobbyModel is the terminal's lobby of a farkle server: the open tables,
// a new table from the setup screen, and then the game at the table
// (Online) with the same screen as a local game.
type LobbyModel struct {
	o             LobbyOptions
	lobby         Lobby
	st            styles
	keys          keyMap
	width, height int

	tables   []LobbyTable
	cursor   int
	loaded   bool
	msg      string
	setup    *setupModel
	opening  string // the table being opened
	creating bool   // a new table is being created (one per setup screen)
	remote   Remote // the table opened, waiting for its game to start
	waitFor  RemoteUpdate
	game     onlineScreen
	help     bool     // the lobby's help screen is shown
	helpView chrome   // the help screen's scroll (helpKey, helpPage)
	results  []Result // of the games finished here, in order
	quit     bool
	listGen  int             // the refresh timer's generation
	lc       *lang.Catalogue // the language of the screen (o.Lang)
}

// onlineScreen is the screen of a game at a server (the ordinary table's
// Model, Dragon Farkle's DragonModel): the lobby hands it every message
// while it plays, and takes the terminal back once the player leaves.
type onlineScreen interface {
	tea.Model
	// left reports whether the player has left the table (q): the lobby
	// then shows itself again.
	left() bool
	// link is the table's link.
	link() Remote
	// resize sets the screen's size and styles, from the lobby's.
	resize(st styles, width, height int)
	// result is the end of a finished game: the winners' line and where
	// its record is ("" for none); ok false while the game goes on.
	result() (r Result, ok bool)
}

// Result is how a game played from the lobby ended.
type Result struct {
	Winners string // "winner: ana with 10,400"
	Record  string // the file the record was saved to, or its address; "" for none
}

type lobbyListMsg struct {
	tables []LobbyTable
	err    error
}

type lobbyRefreshMsg struct{ gen int }

type lobbyOpenedMsg struct {
	id     string
	remote Remote
	err    error
}

type lobbyFirstMsg struct {
	remoteMsg
	r Remote // the link it came from: one the player left is not listened to
}

type lobbyCreatedMsg struct {
	id  string
	err error
}

// rematchMsg asks the lobby for the rematch of the finished table the
// player sits at (p at the end of an online game).
type rematchMsg struct{ table string }

type rematchedMsg struct {
	from, id string
	err      error
}

// NewLobby returns the lobby screen of a server.
func NewLobby(o LobbyOptions, l Lobby) *LobbyModel {
	if o.Refresh <= 0 {
		o.Refresh = 5 * time.Second
	}
	if o.Advisor == nil {
		o.Advisor = PointsAdvisor{}
	}
	if o.Rules.Dice == 0 {
		o.Rules = rules.MustPreset(rules.DefaultBase)
	}
	return &LobbyModel{o: o, lobby: l, st: newStyles(true), keys: newKeys(), width: 80, height: 24, lc: orEnglish(o.Lang)}
}

// Results returns how the games finished from the lobby ended, the one
// being played too once it is over.
func (lm *LobbyModel) Results() []Result {
	out := slices.Clone(lm.results)
	if lm.game != nil {
		if r, ok := lm.game.result(); ok {
			out = append(out, r)
		}
	}
	return out
}

// Game returns the model of the ordinary game being played, nil in the
// lobby or at a table of another kind.
func (lm *LobbyModel) Game() *Model {
	m, _ := lm.game.(*Model)
	return m
}

// Init implements tea.Model.
func (lm *LobbyModel) Init() tea.Cmd {
	if lm.o.Table != "" {
		return tea.Batch(tea.RequestBackgroundColor, lm.open(lm.o.Table, lm.o.Watch))
	}
	return tea.Batch(tea.RequestBackgroundColor, lm.list())
}

func (lm *LobbyModel) list() tea.Cmd {
	l := lm.lobby
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ts, err := l.Tables(ctx)
		return lobbyListMsg{tables: ts, err: err}
	}
}

func (lm *LobbyModel) open(id string, watch bool) tea.Cmd {
	lm.opening = id
	lm.msg = lm.lc.Msg("tui.lobby.opening", "table", id)
	l := lm.lobby
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		r, err := l.Open(ctx, id, watch)
		return lobbyOpenedMsg{id: id, remote: r, err: err}
	}
}

func (lm *LobbyModel) waitFirst() tea.Cmd {
	r := lm.remote
	return func() tea.Msg {
		u, err := r.Next(context.Background())
		return lobbyFirstMsg{remoteMsg: remoteMsg{u: u, err: err}, r: r}
	}
}

// tick returns the timer of the lobby's next refresh: the list is read
// again every o.Refresh while the lobby shows it.
func (lm *LobbyModel) tick() tea.Cmd {
	lm.listGen++
	gen := lm.listGen
	return tea.Tick(lm.o.Refresh, func(time.Time) tea.Msg { return lobbyRefreshMsg{gen: gen} })
}

// listing reports whether the lobby shows its list of tables.
func (lm *LobbyModel) listing() bool {
	return lm.game == nil && lm.opening == "" && lm.setup == nil && !lm.creating && !lm.help
}

// leave closes the table the player was at or waited at and shows the
// lobby again, read afresh.
func (lm *LobbyModel) leave() tea.Cmd {
	if lm.remote != nil {
		lm.remote.Close()
	}
	if lm.game != nil {
		lm.game.link().Close()
		if r, ok := lm.game.result(); ok {
			lm.results = append(lm.results, r)
		}
	}
	lm.game, lm.remote, lm.opening, lm.waitFor, lm.creating = nil, nil, "", RemoteUpdate{}, false
	return lm.list()
}

// Update implements tea.Model.
func (lm *LobbyModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		lm.width, lm.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		lm.st = newStyles(msg.IsDark())
	}
	switch msg := msg.(type) {
	case rematchMsg:
		return lm, lm.rematch(msg.table)
	case rematchedMsg:
		if msg.err != nil {
			lm.msg = lm.lc.Msg("tui.lobby.tableErr", "table", msg.from, "err", userError(lm.lc, msg.err))
			if lm.game == nil {
				return lm, lm.list()
			}
			return lm, nil
		}
		cmd := lm.leave()
		return lm, tea.Batch(cmd, lm.open(msg.id, false))
	case tea.KeyPressMsg:
		if lm.game != nil && key.Matches(msg, lm.keys.Force) {
			lm.quit = true
			return lm, tea.Quit
		}
	}
	if lm.game != nil {
		_, cmd := lm.game.Update(msg)
		if lm.game.left() {
			// q at a table: back to the lobby, not out of the program.
			return lm, lm.leave()
		}
		return lm, cmd
	}
	switch msg := msg.(type) {
	case lobbyListMsg:
		lm.loaded = true
		if msg.err != nil {
			lm.msg = lm.lc.Msg("tui.lobby.cannotRead", "err", userError(lm.lc, msg.err))
		} else {
			lm.tables = msg.tables
			lm.cursor = min(lm.cursor, max(len(lm.tables)-1, 0))
			if strings.HasPrefix(lm.msg, lm.lc.Msg("tui.lobby.cannotRead", "err", "")) {
				lm.msg = ""
			}
		}
		return lm, lm.tick()
	case lobbyRefreshMsg:
		if msg.gen != lm.listGen {
			return lm, nil
		}
		if lm.listing() {
			return lm, lm.list()
		}
		return lm, lm.tick() // read again once the lobby shows
	case lobbyCreatedMsg:
		lm.creating = false
		if msg.err != nil {
			lm.msg = lm.lc.Msg("tui.lobby.createErr", "err", userError(lm.lc, msg.err))
			return lm, lm.list()
		}
		return lm, lm.open(msg.id, false)
	case lobbyOpenedMsg:
		if msg.id != lm.opening {
			if msg.remote != nil {
				msg.remote.Close() // the player left it while it opened
			}
			return lm, nil
		}
		if msg.err != nil {
			lm.opening, lm.msg = "", lm.lc.Msg("tui.lobby.tableErr", "table", msg.id, "err", userError(lm.lc, msg.err))
			return lm, lm.list()
		}
		lm.remote = msg.remote
		lm.msg = ""
		return lm, lm.waitFirst()
	case lobbyFirstMsg:
		if msg.r != lm.remote {
			return lm, nil // a table the player left
		}
		return lm, lm.first(msg.remoteMsg)
	case tea.PasteMsg:
		if lm.setup != nil {
			lm.setup.paste(msg.Content)
		}
	case tea.KeyPressMsg:
		return lm, lm.key(msg)
	}
	return lm, nil
}

// first handles the opened table's word until its game starts.
func (lm *LobbyModel) first(msg remoteMsg) tea.Cmd {
	if msg.err != nil {
		lm.msg = lm.lc.Msg("tui.lobby.tableErr", "table", lm.opening, "err", userError(lm.lc, msg.err))
		return lm.leave()
	}
	lm.waitFor = msg.u
	if msg.u.Game == nil {
		return lm.waitFirst() // waiting for players
	}
	m, err := onlineScreenOf(lm.o.Options, lm.remote, msg.u)
	if err != nil {
		lm.msg = lm.lc.Msg("tui.lobby.tableErr", "table", lm.opening, "err", userError(lm.lc, err))
		return lm.leave()
	}
	m.resize(lm.st, lm.width, lm.height)
	lm.game, lm.remote, lm.opening = m, nil, ""
	return m.Init()
}

// rematch asks the server for the rematch of table and sits at it.
func (lm *LobbyModel) rematch(table string) tea.Cmd {
	l := lm.lobby
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		id, err := l.Rematch(ctx, table)
		return rematchedMsg{from: table, id: id, err: err}
	}
}

func (lm *LobbyModel) key(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, lm.keys.Force) {
		lm.quit = true
		return tea.Quit
	}
	if lm.help {
		if lm.helpView.helpKey(msg, lm.keys, lm.helpLines, lm.height-2) {
			lm.help = false
		}
		return nil
	}
	if lm.setup != nil {
		switch lm.setup.update(msg, lm.keys) {
		case setupQuit:
			lm.setup = nil
			return lm.list()
		case setupStart:
			return lm.create()
		case setupHelp:
			lm.help, lm.helpView.helpTop = true, 0
		}
		return nil
	}
	if key.Matches(msg, lm.keys.Help) {
		lm.help, lm.helpView.helpTop = true, 0
		return nil
	}
	if lm.creating {
		lm.msg = lm.lc.Msg("tui.lobby.creating")
		return nil
	}
	if lm.opening != "" {
		if key.Matches(msg, lm.keys.Quit) || key.Matches(msg, lm.keys.Back) {
			return lm.leave() // back to the lobby; the table stays open for its link
		}
		lm.msg = lm.lc.Msg("tui.lobby.waitKeys")
		return nil
	}
	switch {
	case key.Matches(msg, lm.keys.Quit):
		lm.quit = true
		return tea.Quit
	case key.Matches(msg, lm.keys.Up):
		lm.cursor = max(lm.cursor-1, 0)
	case msg.String() == "down" || msg.String() == "j":
		lm.cursor = min(lm.cursor+1, max(len(lm.tables)-1, 0))
	case msg.String() == "enter" || msg.String() == "w":
		if len(lm.tables) == 0 {
			lm.msg = lm.lc.Msg("tui.lobby.noneOpen")
			return nil
		}
		return lm.open(lm.tables[lm.cursor].ID, msg.String() == "w")
	case msg.String() == "n":
		lm.setup = newSetup(lm.lc, lm.o.Rules, 0)
		lm.setup.noPace = true // the server's bots play at its pace
		lm.setup.lobby = true
		lm.msg = ""
	case msg.String() == "g":
		return lm.list()
	default:
		lm.msg = lm.lc.Msg("tui.lobby.noSuchKey", "key", fmt.Sprintf("%q", msg.String()))
	}
	return nil
}

// create opens the table of the setup screen, once: the setup screen
// gives way to the new table's waiting screen (and its link).
func (lm *LobbyModel) create() tea.Cmd {
	r, seats := lm.setup.result()
	nt := NewTable{Rules: r, Seats: seats}
	if v := lm.setup.other(); v != nil {
		nt.Preset, _ = game.PresetOf(v.Kind()) // the server's game of that kind: its preset's rules and cards
	}
	lm.setup, lm.creating, lm.msg = nil, true, lm.lc.Msg("tui.lobby.creating")
	l := lm.lobby
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		id, err := l.Create(ctx, nt)
		return lobbyCreatedMsg{id: id, err: err}
	}
}

// View implements tea.Model.
func (lm *LobbyModel) View() tea.View {
	if lm.game != nil {
		return lm.game.View()
	}
	if lm.quit {
		return fullScreen("")
	}
	if lm.width < MinWidth {
		return fullScreen(narrowViewIn(lm.lc, "Farkle", lm.width, lm.height))
	}
	st := lm.st
	c := lm.lc
	var out []string
	add := func(l ...string) { out = append(out, l...) }
	right := "q " + c.Msg("tui.btn.quit")
	head := c.Msg("tui.lobby.title") + " · " + lm.o.Server
	if lm.o.Player != "" {
		head += " · " + c.Msg("tui.online.youAre", "name", lm.o.Player)
	}
	if lipgloss.Width(head)+lipgloss.Width(right)+2 > lm.width {
		head = c.Msg("tui.lobby.title") // the server's address goes first, then the player
		if lm.o.Player != "" && lipgloss.Width(head+" · "+c.Msg("tui.online.youAre", "name", lm.o.Player))+lipgloss.Width(right)+2 <= lm.width {
			head += " · " + c.Msg("tui.online.youAre", "name", lm.o.Player)
		}
	}
	left := st.title.Render(c.Msg("tui.lobby.title")) + st.dim.Render(strings.TrimPrefix(head, c.Msg("tui.lobby.title")))
	add(spread(left, st.dim.Render(right), lm.width), "")
	switch {
	case lm.help:
		add(lm.helpView.helpPage(lm.helpLines()))
	case lm.setup != nil:
		note := wrap(c.Msg("tui.lobby.firstIsYou"), lm.width, "")
		add(lm.setup.view(st, lm.width, lm.height-3-len(note)), "")
		for _, l := range note {
			add(st.dim.Render(l))
		}
	case lm.creating:
		add(c.Msg("tui.lobby.creating"))
	case lm.opening != "":
		say := func(text string) { add(wrap(text, lm.width, "")...) }
		add(st.bold.Render(c.Msg("tui.lobby.table", "table", lm.opening)), "")
		if seats := lm.waitFor.Seats; seats != nil {
			say(c.Msg("tui.lobby.waiting"))
			add("")
			for _, s := range seats {
				add("  " + s.Name)
			}
			add("")
			// The link on a line of its own where it fits, never cut.
			link := lm.lobby.Link(lm.opening)
			for _, l := range wrap(c.Msg("tui.lobby.link", "link", link), lm.width, "") {
				add(strings.Replace(l, link, st.key.Render(link), 1))
			}
			say(c.Msg("tui.lobby.linkHow"))
		} else {
			add(c.Msg("tui.lobby.connecting"))
		}
		add("")
		for _, l := range wrapKeys(c.Msg("tui.lobby.leaves"), lm.width) {
			add(st.dim.Render(l))
		}
	default:
		add(lm.listLines()...)
	}
	if lm.msg != "" {
		add("")
		for _, l := range wrap(lm.msg, lm.width, "") {
			add(st.err.Render(l))
		}
	}
	return fullScreen(fit(strings.Join(out, "\n"), lm.width, lm.height))
}

// helpLines is the lobby's help screen: its keys, and how a game at a
// table goes.
func (lm *LobbyModel) helpLines() []string {
	c := lm.lc
	keys := [][2]string{
		{"↑/↓", c.Msg("tui.lobby.help.move")},
		{"enter", c.Msg("tui.lobby.help.enter")},
		{"w", c.Msg("tui.lobby.help.watch")},
		{"n", c.Msg("tui.lobby.help.new")},
		{"g", c.Msg("tui.lobby.help.refresh", "s", int(max(1, lm.o.Refresh.Round(time.Second)/time.Second)))},
		{"?", c.Msg("tui.lobby.help.help")},
		{"q", c.Msg("tui.lobby.help.quit")},
	}
	lines := helpKeysIn(c, lm.st, lm.width, keys)
	return append(lines, wrap(c.Msg("tui.lobby.help.tables"), lm.width, "")...)
}

// listLines draws the lobby's tables.
func (lm *LobbyModel) listLines() []string {
	st := lm.st
	c := lm.lc
	var out []string
	switch {
	case !lm.loaded:
		out = append(out, c.Msg("tui.lobby.reading"))
	case len(lm.tables) == 0:
		out = append(out, c.Msg("tui.lobby.none"))
	default:
		out = append(out, st.dim.Render(fmt.Sprintf("  %-12s  %-10s  %-8s  %s", c.Msg("tui.lobby.colTable"), c.Msg("tui.btn.rules"), c.Msg("tui.lobby.colStatus"), c.Msg("tui.lobby.colSeats"))))
		for i, t := range lm.tables {
			var seats []string
			for _, s := range t.Seats {
				switch {
				case s.Free:
					seats = append(seats, c.Msg("tui.lobby.free"))
				case s.Mine:
					seats = append(seats, c.Msg("tui.lobby.mine", "name", s.Name))
				case s.Bot != "":
					seats = append(seats, c.Msg("tui.lobby.bot", "name", s.Name))
				default:
					seats = append(seats, s.Name)
				}
			}
			status := t.Status
			switch t.Status {
			case "waiting":
				status = c.Msg("tui.lobby.statusWaiting")
			case "playing":
				status = c.Msg("tui.lobby.statusPlaying")
			}
			line := fmt.Sprintf("  %-12s  %-10s  %-8s  %s", t.ID, t.Rules, status, strings.Join(seats, ", "))
			if i == lm.cursor {
				line = st.current.Render("▶" + line[1:])
			}
			out = append(out, line)
		}
	}
	return append(out, "", st.dim.Render(c.Msg("tui.lobby.keys")))
}
