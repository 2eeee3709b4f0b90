{{/*
The objects of one component, shared by every component (the opentelemetry-demo chart's component.yaml
habit): ServiceAccount, Service (and a headless one for a gRPC port), Deployment, HorizontalPodAutoscaler,
PodDisruptionBudget, NetworkPolicy.
Call with (dict "root" $ "name" "<component>"); templates/components.yaml does so for each enabled one.
*/}}
{{- define "dss.component" -}}
{{- $c := deepCopy .root.Values.componentDefaults }}
{{- $_ := include "dss.mergeInto" (dict "dst" $c "src" (deepCopy (index .root.Values.components .name))) }}
{{- $ctx := dict "root" .root "name" .name "c" $c }}
{{- if $c.serviceAccount.create }}
---
{{ include "dss.component.serviceAccount" $ctx }}
{{- end }}
---
{{ include "dss.component.service" $ctx }}
{{- if $c.ports.grpc }}
---
{{ include "dss.component.grpcPeers" $ctx }}
{{- end }}
---
{{ include "dss.component.deployment" $ctx }}
{{- if $c.autoscaling.enabled }}
---
{{ include "dss.component.hpa" $ctx }}
{{- end }}
{{- if and $c.pdb.enabled (include "dss.component.replicated" $ctx) }}
---
{{ include "dss.component.pdb" $ctx }}
{{- end }}
{{- if .root.Values.networkPolicy.enabled }}
---
{{ include "dss.component.networkPolicy" $ctx }}
{{- end }}
{{- end }}

{{- define "dss.component.serviceAccount" -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "dss.componentName" . }}
  labels:
    {{- include "dss.componentLabels" . | nindent 4 }}
  {{- with .c.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: {{ .c.serviceAccount.automountToken }}
{{- end }}

{{- define "dss.component.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "dss.componentName" . }}
  labels:
    {{- include "dss.componentLabels" . | nindent 4 }}
  {{- with .c.service.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: {{ .c.service.type }}
  selector:
    {{- include "dss.componentSelectorLabels" . | nindent 4 }}
  ports:
    {{- if .c.ports.grpc }}
    - name: grpc
      port: {{ .c.ports.grpc }}
      targetPort: grpc
      protocol: TCP
      appProtocol: grpc
    {{- end }}
    {{- if .c.ports.http }}
    - name: http
      port: {{ .c.ports.http }}
      targetPort: http
      protocol: TCP
      appProtocol: http
    {{- end }}
    - name: admin
      port: {{ .c.ports.admin }}
      targetPort: admin
      protocol: TCP
      appProtocol: http
{{- end }}

{{/*
The headless Service of a gRPC component: its name resolves to every ready pod's address, so callers
(dss.grpcTarget, a dns:/// target) spread their calls over all replicas with gRPC's round_robin policy. One
HTTP/2 connection through the ClusterIP Service would pin each caller to one replica.
*/}}
{{- define "dss.component.grpcPeers" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "dss.componentName" . }}-grpc
  labels:
    {{- include "dss.componentLabels" . | nindent 4 }}
spec:
  clusterIP: None
  selector:
    {{- include "dss.componentSelectorLabels" . | nindent 4 }}
  ports:
    - name: grpc
      port: {{ .c.ports.grpc }}
      targetPort: grpc
      protocol: TCP
      appProtocol: grpc
{{- end }}

{{- define "dss.component.deployment" -}}
{{- $root := .root }}
{{- $c := .c }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "dss.componentName" . }}
  labels:
    {{- include "dss.componentLabels" . | nindent 4 }}
spec:
  {{- if not $c.autoscaling.enabled }}
  replicas: {{ $c.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "dss.componentSelectorLabels" . | nindent 6 }}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  template:
    metadata:
      labels:
        {{- include "dss.componentSelectorLabels" . | nindent 8 }}
        {{- with $c.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      annotations:
        # Settings that reach the pod only through files or Secrets still roll it when they change.
        checksum/settings: {{ toYaml $c | sha256sum }}
        {{- if $c.tokenSigningKey }}
        checksum/token-signing: {{ toYaml $root.Values.tokenSigning | sha256sum }}
        {{- end }}
        {{- with $c.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ ternary (include "dss.componentName" .) "default" $c.serviceAccount.create }}
      automountServiceAccountToken: {{ $c.serviceAccount.automountToken }}
      # The services find each other through DSS_*_GRPC_ADDR, not through injected service variables.
      enableServiceLinks: false
      terminationGracePeriodSeconds: {{ $c.terminationGracePeriodSeconds }}
      securityContext:
        {{- toYaml $c.podSecurityContext | nindent 8 }}
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $c.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      {{- if or $c.topologySpread.enabled $c.topologySpreadConstraints }}
      topologySpreadConstraints:
        {{- if $c.topologySpread.enabled }}
        {{- range $key := $c.topologySpread.topologyKeys }}
        - topologyKey: {{ $key }}
          maxSkew: {{ $c.topologySpread.maxSkew }}
          whenUnsatisfiable: {{ $c.topologySpread.whenUnsatisfiable }}
          matchLabelKeys:
            - pod-template-hash
          labelSelector:
            matchLabels:
              {{- include "dss.componentSelectorLabels" (dict "root" $root "name" $.name) | nindent 14 }}
        {{- end }}
        {{- end }}
        {{- with $c.topologySpreadConstraints }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- end }}
      {{- with $c.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $c.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- include "dss.component.affinity" . | nindent 6 }}
      containers:
        - name: {{ .name }}
          image: {{ include "dss.image" $root | quote }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          args:
            {{- toYaml $c.args | nindent 12 }}
          ports:
            {{- if $c.ports.grpc }}
            - name: grpc
              containerPort: {{ $c.ports.grpc }}
              protocol: TCP
            {{- end }}
            {{- if $c.ports.http }}
            - name: http
              containerPort: {{ $c.ports.http }}
              protocol: TCP
            {{- end }}
            - name: admin
              containerPort: {{ $c.ports.admin }}
              protocol: TCP
          env:
            {{- include "dss.component.env" . | nindent 12 }}
          startupProbe:
            {{- include "dss.component.probe" (dict "c" $c "name" .name "probe" $c.probes.startup) | nindent 12 }}
          livenessProbe:
            {{- include "dss.component.probe" (dict "c" $c "name" .name "probe" $c.probes.liveness) | nindent 12 }}
          readinessProbe:
            {{- include "dss.component.probe" (dict "c" $c "name" .name "probe" $c.probes.readiness) | nindent 12 }}
          resources:
            {{- toYaml $c.resources | nindent 12 }}
          securityContext:
            {{- toYaml $c.securityContext | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- if $c.tokenSigningKey }}
            - name: token-signing
              mountPath: /var/run/secrets/dss/token-signing
              readOnly: true
            {{- end }}
            {{- if $c.sessionKey }}
            - name: session
              mountPath: /var/run/secrets/dss/session
              readOnly: true
            {{- end }}
            {{- if $c.webhookSecretKeys }}
            - name: webhook-secret-keys
              mountPath: /var/run/secrets/dss/webhook-secret-keys
              readOnly: true
            {{- end }}
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ $c.tmpSizeLimit }}
        {{- if $c.tokenSigningKey }}
        # The private key must be in the Secret; the previous public keys are optional, so an existingSecret
        # without that key still mounts (the file is then absent).
        - name: token-signing
          projected:
            defaultMode: 0440
            sources:
              - secret:
                  name: {{ include "dss.tokenSigningSecretName" $root }}
                  items:
                    - key: {{ $root.Values.tokenSigning.privateKeyKey }}
                      path: {{ $root.Values.tokenSigning.privateKeyKey }}
              {{- if $root.Values.tokenSigning.previousPublicKeysKey }}
              - secret:
                  name: {{ include "dss.tokenSigningSecretName" $root }}
                  optional: true
                  items:
                    - key: {{ $root.Values.tokenSigning.previousPublicKeysKey }}
                      path: {{ $root.Values.tokenSigning.previousPublicKeysKey }}
              {{- end }}
        {{- end }}
        {{- if $c.sessionKey }}
        - name: session
          secret:
            secretName: {{ include "dss.credentialsSecretName" $root }}
            defaultMode: 0440
            items:
              - key: session-key
                path: session-key
        {{- end }}
        {{- if $c.webhookSecretKeys }}
        - name: webhook-secret-keys
          secret:
            secretName: {{ include "dss.credentialsSecretName" $root }}
            defaultMode: 0440
            items:
              - key: webhook-secret-keys
                path: webhook-secret-keys
        {{- end }}
{{- end }}

{{/*
The environment of one component. Every variable here is read by the services (the deploy workspace's
tests compare this list with each service's config.ts); each block's `if` says which components get it.
*/}}
{{- define "dss.component.env" -}}
{{- $root := .root }}
{{- $c := .c }}
- name: DSS_ADMIN_PORT
  value: {{ $c.ports.admin | quote }}
- name: LOG_LEVEL
  value: {{ $root.Values.logLevel | quote }}
{{- if $c.ports.grpc }}
- name: {{ printf "DSS_%s_GRPC_ADDR" (upper .name) }}
  value: {{ printf "0.0.0.0:%v" $c.ports.grpc | quote }}
{{- end }}
{{- if $c.ports.http }}
- name: {{ $c.httpPortVariable }}
  value: {{ $c.ports.http | quote }}
{{- end }}
{{- range $callee := $c.calls }}
- name: {{ printf "DSS_%s_GRPC_ADDR" (upper $callee) }}
  value: {{ include "dss.grpcTarget" (dict "root" $root "name" $callee) | quote }}
{{- end }}
{{- if $c.appUrl }}
- name: DSS_APP_URL
  value: {{ $root.Values.appUrl | quote }}
{{- end }}
{{- if $c.callsApi }}
- name: DSS_API_URL
  value: {{ printf "http://%s:%v/v1" (include "dss.componentName" (dict "root" $root "name" "gateway")) $root.Values.components.gateway.ports.http | quote }}
{{- end }}
{{- if $c.uses.postgresql }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "dss.credentialsSecretName" $root }}
      key: database-url
{{- end }}
{{- if $c.uses.redis }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "dss.credentialsSecretName" $root }}
      key: redis-url
      optional: true
{{- end }}
{{- if $c.uses.nats }}
- name: NATS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "dss.credentialsSecretName" $root }}
      key: nats-url
{{- end }}
{{- if $c.tokenSigningKey }}
- name: DSS_TOKEN_SIGNING_KEY_FILE
  value: {{ printf "/var/run/secrets/dss/token-signing/%s" $root.Values.tokenSigning.privateKeyKey | quote }}
{{- if $root.Values.tokenSigning.previousPublicKeysKey }}
- name: DSS_TOKEN_PREVIOUS_PUBLIC_KEYS_FILE
  value: {{ printf "/var/run/secrets/dss/token-signing/%s" $root.Values.tokenSigning.previousPublicKeysKey | quote }}
{{- end }}
{{- end }}
{{- if $c.sessionKey }}
- name: DSS_SESSION_KEY_FILE
  value: "/var/run/secrets/dss/session/session-key"
{{- end }}
{{- if $c.webhookSecretKeys }}
- name: DSS_WEBHOOK_SECRET_KEYS_FILE
  value: "/var/run/secrets/dss/webhook-secret-keys/webhook-secret-keys"
{{- end }}
{{- if $root.Values.tracing.enabled }}
- name: OTEL_SERVICE_NAME
  value: {{ printf "dss-%s" .name | quote }}
{{- if $root.Values.tracing.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ $root.Values.tracing.otlpEndpoint | quote }}
{{- end }}
{{- range $key, $value := $root.Values.tracing.env }}
- name: {{ $key }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}
{{- range $key, $value := $root.Values.env }}
- name: {{ $key }}
  value: {{ $value | quote }}
{{- end }}
{{- range $key, $value := $c.env }}
- name: {{ $key }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}

{{/*
One probe. Call with (dict "c" <settings> "name" <component> "probe" <probe settings>); grpc needs a gRPC
port, else http. With namedService, a grpc probe asks for the component's own service (dss.v1.<Name>), whose
status follows the process's readiness; without, the overall status, which stays SERVING until shutdown.
*/}}
{{- define "dss.component.probe" -}}
{{- if and (eq .probe.type "grpc") .c.ports.grpc }}
grpc:
  port: {{ .c.ports.grpc }}
  {{- if .probe.namedService }}
  service: {{ printf "dss.v1.%s" (title .name) }}
  {{- end }}
{{- else }}
httpGet:
  path: {{ .probe.path }}
  port: admin
{{- end }}
periodSeconds: {{ .probe.periodSeconds }}
timeoutSeconds: {{ .probe.timeoutSeconds }}
failureThreshold: {{ .probe.failureThreshold }}
{{- end }}

{{- define "dss.component.hpa" -}}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "dss.componentName" . }}
  labels:
    {{- include "dss.componentLabels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "dss.componentName" . }}
  minReplicas: {{ .c.autoscaling.minReplicas }}
  maxReplicas: {{ .c.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ .c.autoscaling.targetCPUUtilizationPercentage }}
{{- end }}

{{/* "true" when the component may run more than one replica: replicas > 1, or autoscaling up to more. */}}
{{- define "dss.component.replicated" -}}
{{- if .c.autoscaling.enabled }}
{{- if gt (int .c.autoscaling.maxReplicas) 1 }}true{{ end }}
{{- else if gt (int .c.replicas) 1 }}true{{ end }}
{{- end }}

{{/*
The pod's affinity: the component's own `affinity`, plus anti-affinity between its replicas when it may
run more than one (antiAffinity.type soft or hard).
*/}}
{{- define "dss.component.affinity" -}}
{{- $spread := and (include "dss.component.replicated" .) (ne .c.antiAffinity.type "none") }}
{{- if or .c.affinity $spread }}
affinity:
  {{- with .c.affinity }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
  {{- if $spread }}
  podAntiAffinity:
    {{- if eq .c.antiAffinity.type "hard" }}
    requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: {{ .c.antiAffinity.topologyKey }}
        labelSelector:
          matchLabels:
            {{- include "dss.componentSelectorLabels" . | nindent 12 }}
    {{- else }}
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: {{ .c.antiAffinity.weight }}
        podAffinityTerm:
          topologyKey: {{ .c.antiAffinity.topologyKey }}
          labelSelector:
            matchLabels:
              {{- include "dss.componentSelectorLabels" . | nindent 14 }}
    {{- end }}
  {{- end }}
{{- end }}
{{- end }}

{{- define "dss.component.pdb" -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "dss.componentName" . }}
  labels:
    {{- include "dss.componentLabels" . | nindent 4 }}
spec:
  {{- if .c.pdb.minAvailable }}
  minAvailable: {{ .c.pdb.minAvailable }}
  {{- else }}
  maxUnavailable: {{ .c.pdb.maxUnavailable }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "dss.componentSelectorLabels" . | nindent 6 }}
{{- end }}

{{/*
Who may open which port of a component. A rule is written only when it has peers: an ingress rule without
`from` would admit everyone. Admin ports admit networkPolicy.metricsFrom; the `helm test` pods may reach the
public components, every admin port and accounts (the test's CLI calls accounts over gRPC).
*/}}
{{- define "dss.component.networkPolicy" -}}
{{- $root := .root }}
{{- $c := .c }}
{{- $testNames := list }}
{{- $testPeers := list }}
{{- if $root.Values.tests.enabled }}
{{- $testNames = list "helm-test" }}
{{- $testLabels := include "dss.componentSelectorLabels" (dict "root" $root "name" "helm-test") | fromYaml }}
{{- $testPeers = list (dict "podSelector" (dict "matchLabels" $testLabels)) }}
{{- end }}
{{- $grpcCallers := concat (default (list) $c.allowedCallers) (ternary $testNames (list) (eq .name "accounts")) }}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "dss.componentName" . }}
  labels:
    {{- include "dss.componentLabels" . | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "dss.componentSelectorLabels" . | nindent 6 }}
  policyTypes:
    - Ingress
  ingress:
    {{- if and $c.ports.grpc $grpcCallers }}
    - ports:
        - port: grpc
          protocol: TCP
      from:
        {{- include "dss.componentPeers" (dict "root" $root "names" $grpcCallers) | nindent 8 }}
    {{- end }}
    {{- $publicPeers := concat $root.Values.networkPolicy.publicFrom $testPeers }}
    {{- if and $c.ports.http $c.public $publicPeers }}
    - ports:
        - port: http
          protocol: TCP
      from:
        {{- toYaml $publicPeers | nindent 8 }}
    {{- end }}
    {{- /* The gateway's HTTP port also admits the components that call the REST API (callsApi: mcp). */}}
    {{- $apiCallers := list }}
    {{- if and (eq .name "gateway") $c.ports.http }}
    {{- range $name, $other := $root.Values.components }}
    {{- if and $other.enabled $other.callsApi }}
    {{- $apiCallers = append $apiCallers $name }}
    {{- end }}
    {{- end }}
    {{- end }}
    {{- if $apiCallers }}
    - ports:
        - port: http
          protocol: TCP
      from:
        {{- include "dss.componentPeers" (dict "root" $root "names" $apiCallers) | nindent 8 }}
    {{- end }}
    {{- $adminPeers := concat $root.Values.networkPolicy.metricsFrom $testPeers }}
    {{- if $adminPeers }}
    - ports:
        - port: admin
          protocol: TCP
      from:
        {{- toYaml $adminPeers | nindent 8 }}
    {{- end }}
{{- end }}
