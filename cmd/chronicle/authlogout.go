package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) authLogoutCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "logout SERVICE",
		Short: "Revoke a service's tokens where its server offers it, then forget them",
		Long: `logout asks the service's authorization server to revoke its tokens (RFC 7009)
where it offers revocation, then removes them from ~/.chronicle/oauth/. A
server that cannot be reached does not keep them: they are forgotten and the
output says they were not revoked. A service that holds no token says so and
exits 0.`,
		Example: `  chronicle auth logout linear`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svcs, store, err := a.oauthServices(args...)
			if err != nil {
				return err
			}
			svc := svcs[0]
			res, err := store.Logout(a.ctx, svc, nil)
			if err != nil {
				return err
			}
			switch {
			case !res.Found:
				fmt.Fprintf(a.stdout, "%s holds no token: nothing to log out.\n", svc.Name)
			case res.Revoked:
				fmt.Fprintf(a.stdout, "%s: tokens revoked and forgotten.\n", svc.Name)
			case res.NotRevoked != "":
				fmt.Fprintf(a.stdout, "%s: tokens forgotten, not revoked: %s.\n", svc.Name, res.NotRevoked)
			default:
				fmt.Fprintf(a.stdout, "%s: registration forgotten (it held no token).\n", svc.Name)
			}
			return nil
		},
	}
}
