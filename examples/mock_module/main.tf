# A module that stores logs in a bucket of the (imaginary) acme/cloud provider.
# Tested without any cloud: tests/mock serves a MockProvider built from cloud.schema.json.
terraform {
  required_providers {
    cloud = {
      source = "acme/cloud"
    }
  }
}

variable "name" {
  type    = string
  default = "logs"
}

variable "encryption_key" {
  type      = string
  sensitive = true
}

variable "readers" {
  type    = set(string)
  default = ["alice", "bob"]
}

data "cloud_region" "here" {
  name = "eu-west-1"
}

resource "cloud_bucket" "logs" {
  name           = var.name
  region         = data.cloud_region.here.name
  tags           = { team = "platform" }
  readers        = var.readers
  encryption_key = var.encryption_key

  website = {
    index_document = "index.html"
  }

  cors_rules = [
    { origins = ["https://example.com"] },
  ]

  versioning {
    enabled = true
  }

  lifecycle_rule {
    prefix      = "tmp/"
    expire_days = 7
  }
}

resource "cloud_access_key" "reader" {
  bucket_id = cloud_bucket.logs.id
}

output "bucket_arn" {
  value = cloud_bucket.logs.arn
}

output "access_key" {
  value     = cloud_access_key.reader.secret
  sensitive = true
}
