package server

import (
	"encoding/base64"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"
)

// MaxUpload bounds a file sent to PUT /api/files, decoded.
const MaxUpload = 64 << 20

// putFile stores a dataset or asset file in the workspace: PUT /api/files/{path} with
// {"base64": "..."}. The runtime file and the store cannot be written this way (the runtime
// file says which commands run), nor anything hidden; paths are confined like benchmarks'.
func (s *Server) putFile(w http.ResponseWriter, r *http.Request) {
	p := r.PathValue("path")
	if !fs.ValidPath(p) || p == "." || path.Base(p) == RuntimeFile || slices.ContainsFunc(strings.Split(p, "/"), skipDir) {
		writeError(w, http.StatusBadRequest, "bad_path", "a file path is relative to the workspace, without .., hidden folders or the runtime file")
		return
	}
	var req struct {
		Base64 string `json:"base64"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	data, err := base64.StdEncoding.DecodeString(req.Base64)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "base64 does not decode: "+err.Error())
		return
	}
	if err := s.writeAtomic(p, data); err != nil {
		writeError(w, http.StatusForbidden, "unwritable", "cannot save "+p+" inside the workspace")
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Path string `json:"path"`
		Size int    `json:"size"`
	}{p, len(data)})
}
