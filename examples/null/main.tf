# The bundled example for `make demo` and the tfplancheck README: one null_resource whose
# triggers mix a plain value, a value derived from a sensitive variable, and outputs that are
# known, unknown (the id exists only after apply) and sensitive.
terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "2.1.2"
    }
  }
}

variable "db_password" {
  type      = string
  sensitive = true
  default   = "correct-horse-battery-staple"
}

variable "greeting" {
  type    = string
  default = "hello"
}

resource "null_resource" "app" {
  triggers = {
    greeting = var.greeting
    password = var.db_password
    replicas = "3"
  }
}

resource "null_resource" "worker" {
  count = 2
  triggers = {
    app_id = null_resource.app.id
    index  = tostring(count.index)
  }
}

output "app_id" {
  value = null_resource.app.id
}

output "greeting" {
  value = var.greeting
}

output "password" {
  value     = var.db_password
  sensitive = true
}
