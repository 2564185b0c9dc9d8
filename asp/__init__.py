"""The ASP rule chapters (data): play/, offences/, settlement/, profiles/."""
