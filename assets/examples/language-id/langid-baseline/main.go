// Command langid-baseline is a BASELINE for the language-id example: a deliberately simple,
// deterministic language identifier in pure Go that needs nothing installed. It is the
// floor a real system (langid-langdetect) should beat, and what runs on a fresh machine
// with only Go.
//
// It counts evidence for each of the seven languages of the benchmark's enum:
//
//   - each word that is one of the language's most common function words (articles,
//     prepositions, pronouns, auxiliaries: general lists, not drawn from the dataset);
//   - each letter that the language writes and most of the others do not (ñ, ß, ã, ...);
//   - each word ending or letter group typical of the language (-ção, -zione, -ung, ij, ...).
//
// The language with the most evidence wins. Ties, including a text with no evidence at all
// (a lone name or number), go to the language listed first in order: a fixed choice, not a
// guess, so the same text always gets the same answer. It always answers one of the seven
// codes, so its outputs are never invalid; its misses are wrong answers.
//
// Built as bin/examples/langid-baseline; bound as langid-baseline in
// assets/examples/benchy.runtime.yaml.
package main

import (
	"strings"
	"unicode"

	"github.com/benchy-eval/benchy/assets/examples/internal/kit"
)

// order is the tie-break order: English first, as the commonest language of written text;
// the rest as the benchmark's enum lists them.
var order = []string{"en", "de", "es", "fr", "it", "nl", "pt"}

// stopwords are common function words per language. A word shared by several languages
// (de, a, in, la, ...) is evidence for each of them.
var stopwords = map[string][]string{
	"en": strings.Fields(`the and of to a in is it that was for on are with as i his her they be at
		by this had not but from or have an what were we when your can there all my would will
		you he she me our their been has do does did which who`),
	"es": strings.Fields(`de la que el en y a los se del las un por con no una su para es al lo como
		más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay
		donde yo mi nos fue son está estoy tengo`),
	"fr": strings.Fields(`de la le et les des en un une du est que qui dans pour pas sur au avec il
		elle ne je nous vous ce se par plus mais ou son sa aux tu on été être a ces mon ma leur
		cette sont`),
	"de": strings.Fields(`der die und in den von zu das mit sich des auf für ist im dem nicht ein eine
		als auch es an er so dass sie nach wird bei einer um am sind noch wie einem über einen zum
		war haben nur oder aber vor zur bis mehr durch man ich du wir mir mich uns`),
	"it": strings.Fields(`di e il la che in a per un è non una con del della le si da i gli al ma
		come sono lo più nel ho mi ci anche se io questo dei alla sul mio perché ha nella molto
		questa ti`),
	"pt": strings.Fields(`de a o que e do da em um para é com não uma os no se na por mais as dos
		como mas ao ele das à seu sua ou quando muito nos já eu também só pelo pela até isso você
		meu minha tem são foi num numa`),
	"nl": strings.Fields(`de van een het en in is dat op te zijn voor met die niet aan er om ook als
		bij maar door wordt nog naar uit tot kan ik je we wij jij hij zij mijn wel dit heeft deze
		of dan geen zo`),
}

// letters are characters that point to some languages and not to the others.
var letters = map[rune][]string{
	'ñ': {"es"}, '¿': {"es"}, '¡': {"es"},
	'ß': {"de"}, 'ä': {"de"}, 'ö': {"de"}, 'ü': {"de"},
	'ã': {"pt"}, 'õ': {"pt"},
	'ç': {"fr", "pt"}, 'â': {"fr", "pt"}, 'ê': {"fr", "pt"}, 'ô': {"fr", "pt"},
	'à': {"fr", "it", "pt"}, 'è': {"fr", "it"}, 'ù': {"fr", "it"},
	'ì': {"it"}, 'ò': {"it"},
	'á': {"es", "pt"}, 'í': {"es", "pt"}, 'ó': {"es", "pt"}, 'ú': {"es", "pt"},
	'î': {"fr"}, 'û': {"fr"}, 'œ': {"fr"}, 'ë': {"fr", "nl"}, 'ï': {"fr", "nl"},
}

// endings are word endings typical of a language.
var endings = []struct {
	suffix string
	langs  []string
}{
	{"ción", []string{"es"}}, {"ciones", []string{"es"}}, {"dad", []string{"es"}},
	{"ção", []string{"pt"}}, {"ções", []string{"pt"}}, {"mente", []string{"es", "it", "pt"}},
	{"zione", []string{"it"}}, {"zioni", []string{"it"}}, {"mento", []string{"it", "pt"}},
	{"ung", []string{"de"}}, {"keit", []string{"de"}}, {"heit", []string{"de"}}, {"lich", []string{"de"}},
	{"lijk", []string{"nl"}}, {"heid", []string{"nl"}},
	{"tion", []string{"en", "fr"}}, {"ing", []string{"en"}}, {"ly", []string{"en"}},
	{"eux", []string{"fr"}}, {"eau", []string{"fr"}}, {"ment", []string{"fr"}},
}

// groups are letter groups inside a word typical of a language.
var groups = []struct {
	group string
	langs []string
}{
	{"ij", []string{"nl"}}, {"oe", []string{"nl"}}, {"aa", []string{"nl"}},
	{"sch", []string{"de", "nl"}}, {"th", []string{"en"}}, {"nh", []string{"pt"}}, {"lh", []string{"pt"}},
	{"gli", []string{"it"}}, {"zz", []string{"it"}},
}

var stopset = func() map[string][]string {
	m := map[string][]string{}
	for lang, words := range stopwords {
		for _, w := range words {
			m[w] = append(m[w], lang)
		}
	}
	return m
}()

// identify returns the language with the most evidence in text.
func identify(text string) string {
	score := map[string]int{}
	text = strings.ToLower(text)
	for _, r := range text {
		for _, lang := range letters[r] {
			score[lang]++
		}
	}
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })
	for _, w := range words {
		for _, lang := range stopset[w] {
			score[lang]++
		}
		if len([]rune(w)) < 4 { // a short word's ending or letters say little
			continue
		}
		for _, e := range endings {
			if strings.HasSuffix(w, e.suffix) {
				for _, lang := range e.langs {
					score[lang]++
				}
			}
		}
		for _, g := range groups {
			if strings.Contains(w, g.group) {
				for _, lang := range g.langs {
					score[lang]++
				}
			}
		}
	}
	best := order[0]
	for _, lang := range order[1:] {
		if score[lang] > score[best] {
			best = lang
		}
	}
	return best
}

func main() {
	kit.Serve(func(input map[string]any) (map[string]any, error) {
		text, err := kit.String(input, "text")
		if err != nil {
			return nil, err
		}
		return map[string]any{"language": identify(text)}, nil
	})
}
