{{/*
Names, labels and small shared values. Every template name starts with "dss." because Helm shares one
template namespace with the subcharts (postgresql, redis, nats).
*/}}

{{/* Chart name, overridable. */}}
{{- define "dss.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Prefix of every resource name: <release>-dss, or the release name when it already contains the chart name. */}}
{{- define "dss.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* chart label value: name-version. */}}
{{- define "dss.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "dss.labels" -}}
helm.sh/chart: {{ include "dss.chart" . }}
{{ include "dss.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: dss
{{- end }}

{{/* Selector labels shared by every object of the release. */}}
{{- define "dss.selectorLabels" -}}
app.kubernetes.io/name: {{ include "dss.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of one component's objects. Call with (dict "root" $ "name" "gateway"). */}}
{{- define "dss.componentLabels" -}}
{{ include "dss.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{/* Selector labels of one component. Call with (dict "root" $ "name" "gateway"). */}}
{{- define "dss.componentSelectorLabels" -}}
{{ include "dss.selectorLabels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{/* Resource name of one component. Call with (dict "root" $ "name" "gateway"). */}}
{{- define "dss.componentName" -}}
{{- printf "%s-%s" (include "dss.fullname" .root) .name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Deep-merges map .src into map .dst in place: maps merge key by key, anything else (false and empty values
too) replaces. Sprig's merge functions skip "empty" values, so `enabled: false` could not switch off a default.
*/}}
{{- define "dss.mergeInto" -}}
{{- $dst := .dst }}
{{- range $key, $value := .src }}
{{- if and (kindIs "map" $value) (kindIs "map" (get $dst $key)) }}
{{- $_ := include "dss.mergeInto" (dict "dst" (get $dst $key) "src" $value) }}
{{- else }}
{{- $_ := set $dst $key $value }}
{{- end }}
{{- end }}
{{- end }}

{{/* Image reference: digest wins over tag; the tag defaults to the chart's appVersion. */}}
{{- define "dss.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}
{{- end }}

{{/*
The credentials Secret (connection URLs, bundled servers' passwords, session key). Its default name depends on
the release name only, because the Bitnami subcharts find it through a tpl string in values.yaml.
*/}}
{{- define "dss.credentialsSecretName" -}}
{{- .Values.credentials.existingSecret | default (printf "%s-dss-credentials" .Release.Name) }}
{{- end }}

{{/* The Secret holding the token signing key. */}}
{{- define "dss.tokenSigningSecretName" -}}
{{- .Values.tokenSigning.existingSecret | default (printf "%s-token-signing" (include "dss.fullname" .)) }}
{{- end }}

{{/* Subchart object names, as the subcharts compute them (no fullnameOverride support). */}}
{{- define "dss.subchartName" -}}
{{- if contains .chart .root.Release.Name }}
{{- .root.Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .root.Release.Name .chart | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/*
Where callers reach a gRPC component: dns:///<service>-grpc:<port>, the headless Service whose name resolves
to every replica (the clients' round_robin policy spreads calls over them). Call with
(dict "root" $ "name" "accounts").
*/}}
{{- define "dss.grpcTarget" -}}
{{- $target := index .root.Values.components .name }}
{{- printf "dns:///%s-grpc:%v" (include "dss.componentName" .) $target.ports.grpc }}
{{- end }}

{{/* Pod labels of the components listed in .names, as NetworkPolicy peers. */}}
{{- define "dss.componentPeers" -}}
{{- range .names }}
- podSelector:
    matchLabels:
      {{- include "dss.componentSelectorLabels" (dict "root" $.root "name" .) | nindent 6 }}
{{- end }}
{{- end }}
