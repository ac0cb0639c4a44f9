package server_test

import (
	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server/wsclient"
)

// The test harness (a real server on a SQLite file, players at its
// tables, calls of its API) lives in internal/servertest, which the
// browser tests (server/webtest) share; these are its names here.
type (
	testServer    = servertest.Server
	player        = servertest.Player
	answer        = servertest.Answer
	apiAnswer     = servertest.APIAnswer
	tableInfo     = servertest.TableInfo
	tableAnswer   = servertest.TableAnswer
	rematchAnswer = servertest.RematchAnswer
	tourJSON      = servertest.Tournament
	tourGameJSON  = servertest.TournamentGame
	changeJSON    = servertest.RatingChange
	ratedTable    = servertest.RatedTable
	pointsAdvisor = servertest.PointsAdvisor
	panicky       = servertest.Panicky
)

var (
	quiet           = servertest.Quiet
	start           = servertest.StartFile
	startAt         = servertest.StartAt
	startOn         = servertest.StartOn
	choose          = wsclient.Choose
	newPlayer       = servertest.NewPlayer
	host            = servertest.Host
	soloTable       = servertest.SoloTable
	playTwo         = servertest.PlayTwo
	paceTable       = servertest.PaceTable
	clockTable      = servertest.ClockTable
	joinNewTable    = servertest.JoinNewTable
	waitFor         = servertest.WaitFor
	clientWithToken = servertest.ClientWithToken
	ctxT            = servertest.Context
	shortRules      = servertest.ShortRules
	meBot           = servertest.MeBot
	bots2           = servertest.TwoBots
	threeRules      = servertest.ThreeRules
	dragonBotGame   = servertest.DragonBotGame
	post            = servertest.Post
	send            = servertest.Send
	call            = servertest.Call
	invite          = servertest.Invite
	idOf            = servertest.IDOf
	seatOf          = servertest.SeatOf
	modCall         = servertest.ModCall
	getInfo         = servertest.GetInfo
	makeAccount     = servertest.MakeAccount
	makeModerator   = servertest.MakeModerator
	sha             = servertest.SHA
	botsCast        = servertest.BotsCast
	advising        = servertest.Advising
	breaking        = servertest.Breaking
	botEntrants     = servertest.BotEntrants
	newTour         = servertest.NewTournament
	getTour         = servertest.GetTournament
	waitTour        = servertest.WaitTournament
	exploreRules    = servertest.ExploreRules
	startExplorer   = servertest.StartExplorer
)
