package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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
	Create(ctx context.Context, r rules.Rules, seats []Seat, clock time.Duration) (string, error)
	// Open sits at a table (or watches it, with watch or when it is full)
	// and connects to it.
	Open(ctx context.Context, id string, watch bool) (Remote, error)
	// Link is the table's link for friends.
	Link(id string) string
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

	tables  []LobbyTable
	cursor  int
	loaded  bool
	msg     string
	setup   *setupModel
	opening string // the table being opened
	remote  Remote // the table opened, waiting for its game to start
	waitFor RemoteUpdate
	game    *Model
	quit    bool
	listGen int             // the refresh timer's generation
	lc      *lang.Catalogue // the language of the screen (o.Lang)
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

type lobbyFirstMsg remoteMsg

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

// Game returns the model of the game being played, nil in the lobby.
func (lm *LobbyModel) Game() *Model { return lm.game }

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
		return lobbyFirstMsg{u: u, err: err}
	}
}

// Update implements tea.Model.
func (lm *LobbyModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		lm.width, lm.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		lm.st = newStyles(msg.IsDark())
	}
	if lm.game != nil {
		_, cmd := lm.game.Update(msg)
		return lm, cmd
	}
	switch msg := msg.(type) {
	case lobbyListMsg:
		lm.loaded = true
		if msg.err != nil {
			lm.msg = lm.lc.Msg("tui.lobby.cannotRead", "err", msg.err.Error())
		} else {
			lm.tables = msg.tables
			lm.cursor = min(lm.cursor, max(len(lm.tables)-1, 0))
		}
		lm.listGen++
		gen := lm.listGen
		return lm, tea.Tick(lm.o.Refresh, func(time.Time) tea.Msg { return lobbyRefreshMsg{gen: gen} })
	case lobbyRefreshMsg:
		if msg.gen == lm.listGen && lm.opening == "" && lm.setup == nil {
			return lm, lm.list()
		}
	case lobbyOpenedMsg:
		if msg.err != nil {
			lm.opening, lm.msg = "", lm.lc.Msg("tui.lobby.tableErr", "table", msg.id, "err", msg.err.Error())
			return lm, lm.list()
		}
		lm.remote = msg.remote
		lm.msg = ""
		return lm, lm.waitFirst()
	case lobbyFirstMsg:
		return lm, lm.first(remoteMsg(msg))
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
		lm.opening, lm.remote, lm.msg = "", nil, lm.lc.Msg("tui.lobby.tableErr", "table", lm.opening, "err", msg.err.Error())
		return lm.list()
	}
	lm.waitFor = msg.u
	if msg.u.Game == nil {
		return lm.waitFirst() // waiting for players
	}
	m, err := Online(lm.o.Options, lm.remote, msg.u)
	if err != nil {
		lm.opening, lm.remote, lm.msg = "", nil, err.Error()
		return lm.list()
	}
	m.st = lm.st
	m.width, m.height = lm.width, lm.height
	lm.game = m
	return m.Init()
}

func (lm *LobbyModel) key(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, lm.keys.Force) {
		lm.quit = true
		return tea.Quit
	}
	if lm.setup != nil {
		switch lm.setup.update(msg, lm.keys) {
		case setupQuit:
			lm.setup = nil
		case setupStart:
			return lm.create()
		}
		return nil
	}
	if lm.opening != "" {
		if key.Matches(msg, lm.keys.Quit) || key.Matches(msg, lm.keys.Back) {
			lm.quit = true
			return tea.Quit
		}
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
		lm.msg = ""
	case msg.String() == "g":
		return lm.list()
	default:
		lm.msg = lm.lc.Msg("tui.lobby.noSuchKey", "key", fmt.Sprintf("%q", msg.String()))
	}
	return nil
}

// create opens the table of the setup screen.
func (lm *LobbyModel) create() tea.Cmd {
	if lm.setup.isDragon() {
		lm.setup.err = lm.lc.Msg("tui.lobby.noDragon")
		return nil
	}
	r, seats := lm.setup.result()
	l := lm.lobby
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		id, err := l.Create(ctx, r, seats, 0)
		if err != nil {
			return lobbyOpenedMsg{id: "(new)", err: err}
		}
		rm, err := l.Open(ctx, id, false)
		return lobbyOpenedMsg{id: id, remote: rm, err: err}
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
	left := st.title.Render(c.Msg("tui.lobby.title")) + st.dim.Render(" · "+lm.o.Server)
	if lm.o.Player != "" {
		left += st.dim.Render(" · " + c.Msg("tui.online.youAre", "name", lm.o.Player))
	}
	add(spread(left, st.dim.Render("q "+c.Msg("tui.btn.quit")), lm.width), "")
	switch {
	case lm.setup != nil:
		add(lm.setup.view(st, lm.width, lm.height-4))
		add("", st.dim.Render(c.Msg("tui.lobby.firstIsYou")))
	case lm.opening != "":
		add(st.bold.Render(c.Msg("tui.lobby.table", "table", lm.opening)), "")
		if seats := lm.waitFor.Seats; seats != nil {
			add(c.Msg("tui.lobby.waiting"), "")
			for _, s := range seats {
				add("  " + s.Name)
			}
			add("", c.Msg("tui.lobby.link", "link", st.key.Render(lm.lobby.Link(lm.opening))))
			add(c.Msg("tui.lobby.linkHow"))
		} else {
			add(c.Msg("tui.lobby.connecting"))
		}
		add("", st.dim.Render(c.Msg("tui.lobby.leaves")))
	default:
		add(lm.listLines()...)
	}
	if lm.msg != "" {
		add("", st.err.Render(lm.msg))
	}
	return fullScreen(fit(strings.Join(out, "\n"), lm.width, lm.height))
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
