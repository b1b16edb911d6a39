<?php
// PHP's built-in server runs this for every request, doing what Apache's rewrite rules do for
// WordPress: a file that exists is served, any other path goes to index.php (pretty links),
// unless the plain_links mode is on: then, as on a host without rewriting, it is not found.
// ABSPATH is set here because the site's folder holds symbolic links into the packaged
// WordPress, and PHP resolves those in __DIR__.
define( 'ABSPATH', getenv( 'TEST_WP_ROOT' ) );

$path = rawurldecode( (string) parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH ) );
$file = ABSPATH . ltrim( $path, '/' );
if ( is_dir( $file ) ) {
	$file = rtrim( $file, '/' ) . '/index.php';
}
if ( ! is_file( $file ) ) {
	if ( file_exists( getenv( 'TEST_WP_MU_PLUGINS' ) . '/plain_links.php' ) ) {
		http_response_code( 404 );
		echo '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>';
		echo '<h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>';
		return;
	}
	$file = ABSPATH . 'index.php';
} elseif ( substr( $file, -4 ) !== '.php' ) {
	return false;
}
$_SERVER['SCRIPT_NAME']     = '/' . substr( $file, strlen( ABSPATH ) );
$_SERVER['PHP_SELF']        = $_SERVER['SCRIPT_NAME'];
$_SERVER['SCRIPT_FILENAME'] = $file;
chdir( dirname( $file ) );
require $file;
