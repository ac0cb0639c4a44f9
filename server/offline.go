package server

//go:generate go run ../internal/wasmbuild/gen
//go:generate go run ../internal/appicon/gen

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/farkle/farkle/lang"
)

// The installable web app (docs/API.md, "Play anywhere"): a manifest with
// the app's icons, a service worker that keeps the app shell, the
// catalogues and the WebAssembly engine of the local games (package
// localplay, compiled by cmd/farkle-wasm) for offline play, and the module
// itself. Its cache is named by the build, so a new release replaces it
// whole.

// wasmGz is the module as committed, gzipped (internal/wasmbuild).
const wasmGz = "farkle.wasm.gz"

// offlineRoutes registers the app's routes: the service worker, the
// manifest, the module and the page of local games.
func (s *Server) offlineRoutes(mux router) {
	static := webStatic()
	mux.HandleFunc("GET /sw.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(serviceWorker(static))
	})
	mux.HandleFunc("GET /manifest.webmanifest", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/manifest+json")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(manifest(langOf(r)))
	})
	mux.HandleFunc("GET /static/farkle.wasm", func(w http.ResponseWriter, r *http.Request) {
		serveWasm(w, r, static)
	})
}

// appBuild is what names a release of the web app: a hash of every file
// the page is made of (the embedded web files and the catalogues), and the
// files the service worker keeps for offline play.
type appBuild struct {
	Version string   `json:"version"`
	Shell   []string `json:"shell"`
}

// offlinePages are the routes the service worker keeps besides the static
// files: the page (the same under each name; any page opens offline as
// "/") and the manifest.
var offlinePages = []string{"/", "/local", "/manifest.webmanifest"}

// buildOf returns the build of the embedded files, made once.
var buildOf = sync.OnceValue(func() appBuild { return makeBuild(webStatic()) })

func webStatic() fs.FS {
	static, _ := fs.Sub(webFS, "web")
	return static
}

func makeBuild(static fs.FS) appBuild {
	h := sha256.New()
	b := appBuild{Shell: append([]string(nil), offlinePages...)}
	var files []string
	_ = fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	sort.Strings(files)
	for _, p := range files {
		data, _ := fs.ReadFile(static, p)
		h.Write([]byte(p))
		h.Write([]byte{0})
		h.Write(data)
		switch {
		case p == wasmGz:
			b.Shell = append(b.Shell, "/static/farkle.wasm")
		case p == "index.html", p == "sw.js", strings.HasSuffix(p, ".LICENSE"):
			// the page is kept as "/", the worker by the browser
		default:
			b.Shell = append(b.Shell, "/static/"+p)
		}
	}
	b.Shell = append(b.Shell, "/static/lang/index.json")
	for _, code := range lang.Codes() {
		data, _ := lang.JSON(code)
		h.Write([]byte(code))
		h.Write(data)
		b.Shell = append(b.Shell, "/static/lang/"+code+".json")
	}
	b.Version = hex.EncodeToString(h.Sum(nil))[:16]
	return b
}

// serviceWorker is server/web/sw.js with the build it keeps before it.
func serviceWorker(static fs.FS) []byte {
	src, _ := fs.ReadFile(static, "sw.js")
	b, _ := json.Marshal(buildOf())
	return append([]byte("const BUILD = "+string(b)+";\n"), src...)
}

// manifest is the web app's manifest in the language of c.
func manifest(c *lang.Catalogue) []byte {
	type icon struct {
		Src     string `json:"src"`
		Sizes   string `json:"sizes"`
		Type    string `json:"type"`
		Purpose string `json:"purpose,omitempty"`
	}
	type shortcut struct {
		Name string `json:"name"`
		URL  string `json:"url"`
	}
	m := struct {
		ID          string     `json:"id"`
		Name        string     `json:"name"`
		ShortName   string     `json:"short_name"`
		Description string     `json:"description"`
		Lang        string     `json:"lang"`
		StartURL    string     `json:"start_url"`
		Scope       string     `json:"scope"`
		Display     string     `json:"display"`
		Orientation string     `json:"orientation"`
		Background  string     `json:"background_color"`
		Theme       string     `json:"theme_color"`
		Icons       []icon     `json:"icons"`
		Shortcuts   []shortcut `json:"shortcuts"`
	}{
		ID: "/", Name: "Farkle", ShortName: "Farkle", Description: c.Msg("web.app.description"), Lang: c.Code,
		StartURL: "/", Scope: "/", Display: "standalone", Orientation: "any", Background: "#f4efe6", Theme: "#1f2430",
		Icons: []icon{
			{"/static/icons/icon-192.png", "192x192", "image/png", ""},
			{"/static/icons/icon-512.png", "512x512", "image/png", ""},
			{"/static/icons/icon-maskable-512.png", "512x512", "image/png", "maskable"},
			{"/static/favicon.svg", "any", "image/svg+xml", ""},
		},
		Shortcuts: []shortcut{{c.Msg("web.local.title"), "/local"}},
	}
	b, _ := json.Marshal(m)
	return b
}

// serveWasm answers the module: gzipped as committed when the client takes
// gzip (every browser does), else unpacked on the way. Its ETag is the
// hash of the bytes, so a page that has it gets 304.
func serveWasm(w http.ResponseWriter, r *http.Request, static fs.FS) {
	gz, err := fs.ReadFile(static, wasmGz)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	sum := sha256.Sum256(gz)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("Content-Type", "application/wasm")
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", etag)
	if strings.Contains(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		w.Write(gz)
		return
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		http.Error(w, "the module is damaged", http.StatusInternalServerError)
		return
	}
	io.Copy(w, zr)
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip
// (not with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			return strings.ReplaceAll(params, " ", "") != "q=0"
		}
	}
	return false
}
