package client

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// tokenKey is where the browser keeps the server's token, for this tab only, when the
// server asks for one (a server listening beyond loopback).
const tokenKey = "benchy-token"

// origin is the server the page came from.
func origin() string {
	u := app.Window().URL()
	return u.Scheme + "://" + u.Host
}

func token() string {
	t := app.Window().Get("sessionStorage").Call("getItem", tokenKey)
	if t.Truthy() {
		return t.String()
	}
	return ""
}

// HasToken reports whether this tab holds a token for the server: then a plain link to the
// API cannot be followed (it would not send the token) and the app fetches it instead.
func HasToken() bool { return token() != "" }

// SetToken keeps the server's token for this tab.
func SetToken(t string) {
	app.Window().Get("sessionStorage").Call("setItem", tokenKey, t)
}
