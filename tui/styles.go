package tui

import "charm.land/lipgloss/v2"

// styles holds every colour and emphasis of the game in one place. The
// colours suit the terminal's background (dark unless it says otherwise:
// see the tea.BackgroundColorMsg in the models' Update), and the program
// degrades them to what the terminal supports, down to none (NO_COLOR,
// a dumb terminal; see colorProfile); nothing on screen relies on colour
// alone (selected dice have a double border, a selection that cannot be
// kept a heavy one, the player to act a ▶).
type styles struct {
	title, dim, bold, err, good, warn, key  lipgloss.Style
	die, dieSel, dieBad, dieKept, dieFarkle lipgloss.Style
	current, panel, banner                  lipgloss.Style
}

func newStyles(dark bool) styles {
	pick := lipgloss.LightDark(dark)
	accent := pick(lipgloss.Color("#8a3ffc"), lipgloss.Color("#be95ff"))
	red := pick(lipgloss.Color("#c1121f"), lipgloss.Color("#ff6b6b"))
	green := pick(lipgloss.Color("#2b8a3e"), lipgloss.Color("#69db7c"))
	amber := pick(lipgloss.Color("#b35c00"), lipgloss.Color("#ffd43b"))
	grey := pick(lipgloss.Color("#6c757d"), lipgloss.Color("#909296"))
	return styles{
		title:     lipgloss.NewStyle().Bold(true).Foreground(accent),
		dim:       lipgloss.NewStyle().Foreground(grey),
		bold:      lipgloss.NewStyle().Bold(true),
		err:       lipgloss.NewStyle().Bold(true).Foreground(red),
		good:      lipgloss.NewStyle().Bold(true).Foreground(green),
		warn:      lipgloss.NewStyle().Bold(true).Foreground(amber),
		key:       lipgloss.NewStyle().Bold(true).Foreground(accent),
		die:       lipgloss.NewStyle(),
		dieSel:    lipgloss.NewStyle().Bold(true).Foreground(green),
		dieBad:    lipgloss.NewStyle().Bold(true).Foreground(amber),
		dieKept:   lipgloss.NewStyle().Foreground(grey),
		dieFarkle: lipgloss.NewStyle().Foreground(red),
		current:   lipgloss.NewStyle().Bold(true),
		panel:     lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(grey).Padding(0, 1),
		banner:    lipgloss.NewStyle().Bold(true).Foreground(amber),
	}
}
