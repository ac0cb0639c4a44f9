package solved

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// staleTemp is the age after which a temporary file left in the cache
// directory (a write cut short by a crash) is removed.
const staleTemp = time.Hour

// touchCacheFile marks a cache file as just used, so that trimCacheDir
// removes it last.
func touchCacheFile(name string) {
	now := time.Now()
	_ = os.Chtimes(name, now, now)
}

// trimCacheDir removes the least recently used duel and three-player table
// files of dir (by modification time, which loads refresh) until the files
// take at most max bytes, and temporary files older than staleTemp. It returns the
// number of files removed. Errors are ignored: a file that cannot be
// removed is tried again at the next trim.
func trimCacheDir(dir string, max int64) int {
	if dir == "" || max <= 0 {
		return 0
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	type file struct {
		name string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	removed := 0
	for _, e := range entries {
		name := e.Name()
		tmp := (strings.HasPrefix(name, ".duel-") || strings.HasPrefix(name, ".three-")) && strings.HasSuffix(name, ".tmp")
		if !tmp && !((strings.HasPrefix(name, "duel-") || strings.HasPrefix(name, "three-")) && strings.HasSuffix(name, ".bin")) {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if tmp {
			if time.Since(info.ModTime()) > staleTemp && os.Remove(filepath.Join(dir, name)) == nil {
				removed++
			}
			continue
		}
		files = append(files, file{name, info.Size(), info.ModTime()})
		total += info.Size()
	}
	sort.Slice(files, func(i, j int) bool {
		if !files[i].mod.Equal(files[j].mod) {
			return files[i].mod.Before(files[j].mod)
		}
		return files[i].name < files[j].name
	})
	for _, f := range files {
		if total <= max {
			break
		}
		if os.Remove(filepath.Join(dir, f.name)) == nil {
			total -= f.size
			removed++
		}
	}
	return removed
}
