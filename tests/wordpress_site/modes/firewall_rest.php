<?php
// A web application firewall that answers every REST request, by either address, with its own
// 403 page before WordPress reads it.
$path = (string) parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH );
if ( 0 === strpos( $path, '/wp-json' ) || isset( $_GET['rest_route'] ) ) {
	status_header( 403 );
	header( 'Content-Type: text/html; charset=utf-8' );
	echo '<!DOCTYPE html><html><head><title>403 Forbidden</title></head>';
	echo '<body><h1>Access denied</h1><p>This request was blocked by the firewall.</p></body></html>';
	exit;
}
