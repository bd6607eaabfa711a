# converge drift as a Nomad periodic batch job: the same read-only check as
# examples/ci/github-actions/drift.yml, for teams whose scheduler is Nomad itself.
#
#   nomad var put nomad/jobs/converge-drift nomad_token=<token> tfe_token=<token> \
#     okta_client_secret=<secret> vpc_db_password=<secret>
#   nomad job run drift.nomad.hcl
#
# Tokens come from a Nomad Variable at nomad/jobs/converge-drift: the job's workload identity may
# read variables under its own job path without any ACL policy. They are rendered into the task's
# secrets/ directory as environment variables, never put in the job spec or on a command line.
#
# Exit codes: 0 in sync, 2 drift, 1 error. A non-zero exit fails the allocation; with restart and
# reschedule attempts at 0 a drifted run shows as one failed allocation, which is what
# `nomad job status converge-drift` and your alerting on failed allocations pick up. The Markdown
# report is in the allocation's alloc/data/drift.md (`nomad alloc fs <alloc> alloc/data/drift.md`).

job "converge-drift" {
  type = "batch"

  periodic {
    crons            = ["17 6 * * 1-5"]
    time_zone        = "UTC"
    # A slow run (HCP Terraform rate limits) must never overlap the next one.
    prohibit_overlap = true
  }

  group "drift" {
    count = 1

    # Drift is a finding, not a crash: do not retry it.
    restart {
      attempts = 0
      mode     = "fail"
    }

    reschedule {
      attempts  = 0
      unlimited = false
    }

    task "drift" {
      driver = "docker"

      config {
        image   = "node:20-bookworm-slim"
        command = "/bin/sh"
        args    = ["/local/drift.sh"]
      }

      # The manifests (and the package-lock.json that pins converge) from your repository.
      # For a private repository add `options { sshkey = "..." }` from another variable.
      artifact {
        source      = "git::https://github.com/acme/platform-config"
        destination = "local/repo"
      }

      template {
        destination = "secrets/converge.env"
        env         = true
        change_mode = "noop"
        data        = <<EOT
{{- with nomadVar "nomad/jobs/converge-drift" }}
NOMAD_TOKEN={{ .nomad_token }}
TFE_TOKEN={{ .tfe_token }}
OKTA_CLIENT_SECRET={{ .okta_client_secret }}
VPC_DB_PASSWORD={{ .vpc_db_password }}
{{- end }}
EOT
      }

      template {
        destination = "local/drift.sh"
        perms       = "0755"
        change_mode = "noop"
        data        = <<EOT
#!/bin/sh
set -u
cd /local/repo
npm ci --no-audit --no-fund
npx converge drift --markdown > /alloc/data/drift.md
code=$?
cat /alloc/data/drift.md
exit $code
EOT
      }

      env {
        # The cluster's API address as seen from the task, and the HCP Terraform organization.
        NOMAD_ADDR       = "https://nomad.service.consul:4646"
        TFE_ORGANIZATION = "acme"
      }

      resources {
        cpu    = 500
        memory = 512
      }
    }
  }
}
