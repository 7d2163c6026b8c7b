package k8s

import (
	"encoding/json"
	"strings"

	"github.com/goccy/go-yaml"
)

// The types below are the few fields of Kubernetes' batch/v1 Job and core/v1 Pod that the
// manifests set, named and nested as in k8s.io/api (the tests decode the output into those
// types, refusing unknown fields). Their order is the order they are printed in.

// str is a string printed double-quoted whatever it holds: goccy/go-yaml leaves 1e3, .inf
// and 012:30 bare, which a YAML reader takes for numbers.
type str string

// MarshalYAML writes s as a JSON string, which is a YAML double-quoted scalar.
func (s str) MarshalYAML() ([]byte, error) { return json.Marshal(string(s)) }

// expanded is a string of a container's command, args or an env value, which Kubernetes
// expands: $(VAR) becomes the container's variable VAR (a Secret's keys among them) and $$
// one $. So every $ is written $$, and the string reaches benchy as it was given: a path
// named with $(HOME) or $(OPENAI_API_KEY) stays a path, never a secret.
type expanded string

// MarshalYAML writes s, each $ doubled, as a JSON string.
func (s expanded) MarshalYAML() ([]byte, error) {
	return json.Marshal(strings.ReplaceAll(string(s), "$", "$$"))
}

// labels is a map printed in the order it is built, never a Go map's.
type labels [][2]string

// MarshalYAML writes the labels as one mapping, in order.
func (l labels) MarshalYAML() (any, error) {
	m := make(yaml.MapSlice, 0, len(l))
	for _, kv := range l {
		m = append(m, yaml.MapItem{Key: kv[0], Value: str(kv[1])})
	}
	return m, nil
}

type job struct {
	APIVersion str      `yaml:"apiVersion"`
	Kind       str      `yaml:"kind"`
	Metadata   metadata `yaml:"metadata"`
	Spec       jobSpec  `yaml:"spec"`
}

type metadata struct {
	Name      str    `yaml:"name,omitempty"`
	Namespace str    `yaml:"namespace,omitempty"`
	Labels    labels `yaml:"labels,omitempty"`
}

type jobSpec struct {
	CompletionMode       str               `yaml:"completionMode,omitempty"`
	Completions          int               `yaml:"completions"`
	Parallelism          int               `yaml:"parallelism"`
	BackoffLimit         *int              `yaml:"backoffLimit,omitempty"`
	BackoffLimitPerIndex *int              `yaml:"backoffLimitPerIndex,omitempty"`
	PodFailurePolicy     *podFailurePolicy `yaml:"podFailurePolicy,omitempty"`
	Template             podTemplate       `yaml:"template"`
}

type podFailurePolicy struct {
	Rules []podFailureRule `yaml:"rules"`
}

type podFailureRule struct {
	Action          str              `yaml:"action"`
	OnExitCodes     *onExitCodes     `yaml:"onExitCodes,omitempty"`
	OnPodConditions []onPodCondition `yaml:"onPodConditions,omitempty"`
}

type onExitCodes struct {
	ContainerName str   `yaml:"containerName,omitempty"`
	Operator      str   `yaml:"operator"`
	Values        []int `yaml:"values,flow"`
}

type onPodCondition struct {
	Type   str `yaml:"type"`
	Status str `yaml:"status"`
}

type podTemplate struct {
	Metadata metadata `yaml:"metadata"`
	Spec     podSpec  `yaml:"spec"`
}

type podSpec struct {
	RestartPolicy  str         `yaml:"restartPolicy"`
	InitContainers []container `yaml:"initContainers,omitempty"`
	Containers     []container `yaml:"containers"`
	Volumes        []volume    `yaml:"volumes"`
}

type container struct {
	Name         str           `yaml:"name"`
	Image        str           `yaml:"image"`
	Command      []expanded    `yaml:"command"`
	WorkingDir   str           `yaml:"workingDir"`
	EnvFrom      []envFrom     `yaml:"envFrom,omitempty"`
	VolumeMounts []volumeMount `yaml:"volumeMounts"`
}

type envFrom struct {
	SecretRef secretRef `yaml:"secretRef"`
}

type secretRef struct {
	Name str `yaml:"name"`
}

type volumeMount struct {
	Name      str `yaml:"name"`
	MountPath str `yaml:"mountPath"`
}

type volume struct {
	Name                  str      `yaml:"name"`
	PersistentVolumeClaim claimRef `yaml:"persistentVolumeClaim"`
}

type claimRef struct {
	ClaimName str `yaml:"claimName"`
}
