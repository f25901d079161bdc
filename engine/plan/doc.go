// Package plan computes what apply would change: the configuration's desired
// resources (services, policies, the hub and chronova settings, central
// skills, links and owned config entries) against what the tools really have
// and what the state says chronicle last wrote. The result is data — a Plan
// of Changes with addresses and actions — that can be rendered, saved to a
// file and applied later, as in Terraform.
package plan
