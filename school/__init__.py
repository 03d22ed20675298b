"""The lesson server of a school (`mattekrig serve`): one address, many teachers' lessons."""
