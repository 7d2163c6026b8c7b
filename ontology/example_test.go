package ontology_test

import (
	"errors"
	"fmt"

	"github.com/benchy-eval/benchy/ontology"
)

func ExampleRegistry_SuggestLanguage() {
	r, _ := ontology.Lookup("1.0")
	for _, s := range []string{"Spanish", "español", "es-ES", "en_US", "EN", "deutsch", "klingon"} {
		fmt.Printf("%s -> %q\n", s, r.SuggestLanguage(s))
	}
	// Output:
	// Spanish -> "es"
	// español -> "es"
	// es-ES -> "es"
	// en_US -> "en"
	// EN -> "en"
	// deutsch -> "de"
	// klingon -> ""
}

func ExampleRegistry_CheckProgram() {
	r, _ := ontology.Lookup("1.0")
	p := ontology.Program{
		Input:  []ontology.Leaf{{Path: []string{"text"}, Type: "string"}},
		Output: []ontology.Leaf{{Path: []string{"label"}, Type: "string"}},
	}
	vs, _ := r.CheckProgram("classify", p)
	for _, v := range vs {
		fmt.Printf("%s: %s\n", v.Part, v.Message)
	}
	_, err := r.CheckProgram("summarize", p)
	fmt.Println(errors.Is(err, ontology.ErrUnsupportedTask))
	// Output:
	// output: task classify needs its output field to be of type enum; label is string
	// true
}
