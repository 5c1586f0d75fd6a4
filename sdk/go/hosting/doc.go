// Apps, custom domains, web access and analytics of the Hosting Management API.
package hosting
