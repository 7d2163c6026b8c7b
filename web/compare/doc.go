// Package compare is the comparison page (/compare?a=ID&b=ID): run B against run A of the
// same benchmark, with the paired interval of the difference, per-dimension differences and
// the examples whose outcome changed; without both runs, it lets the user pick them.
package compare
