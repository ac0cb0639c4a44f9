package tui

import "github.com/charmbracelet/lipgloss"

// styles holds every colour and emphasis of the game in one place. Colours
// are adaptive (light and dark backgrounds) and the renderer degrades them
// to what the terminal supports, down to none; nothing on screen relies on
// colour alone (selected dice have a double border, the player to act a ▶).
type styles struct {
	title, dim, bold, err, good, warn, key lipgloss.Style
	die, dieSel, dieKept, dieFarkle        lipgloss.Style
	current, panel, banner                 lipgloss.Style
}

func newStyles(r *lipgloss.Renderer) styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	accent := lipgloss.AdaptiveColor{Light: "#8a3ffc", Dark: "#be95ff"}
	red := lipgloss.AdaptiveColor{Light: "#c1121f", Dark: "#ff6b6b"}
	green := lipgloss.AdaptiveColor{Light: "#2b8a3e", Dark: "#69db7c"}
	amber := lipgloss.AdaptiveColor{Light: "#b35c00", Dark: "#ffd43b"}
	grey := lipgloss.AdaptiveColor{Light: "#6c757d", Dark: "#909296"}
	s := styles{
		title:     r.NewStyle().Bold(true).Foreground(accent),
		dim:       r.NewStyle().Foreground(grey),
		bold:      r.NewStyle().Bold(true),
		err:       r.NewStyle().Bold(true).Foreground(red),
		good:      r.NewStyle().Bold(true).Foreground(green),
		warn:      r.NewStyle().Bold(true).Foreground(amber),
		key:       r.NewStyle().Bold(true).Foreground(accent),
		die:       r.NewStyle(),
		dieSel:    r.NewStyle().Bold(true).Foreground(green),
		dieKept:   r.NewStyle().Foreground(grey),
		dieFarkle: r.NewStyle().Foreground(red),
		current:   r.NewStyle().Bold(true),
		panel:     r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(grey).Padding(0, 1),
		banner:    r.NewStyle().Bold(true).Foreground(amber),
	}
	return s
}
