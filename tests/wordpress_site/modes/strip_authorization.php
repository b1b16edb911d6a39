<?php
// The host drops the Authorization header before PHP sees it, as Apache does for CGI and
// FastCGI unless told to pass it on. XML-RPC, which reads the password from the body, still works.
unset(
	$_SERVER['HTTP_AUTHORIZATION'],
	$_SERVER['REDIRECT_HTTP_AUTHORIZATION'],
	$_SERVER['PHP_AUTH_USER'],
	$_SERVER['PHP_AUTH_PW']
);
