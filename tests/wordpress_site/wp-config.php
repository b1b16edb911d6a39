<?php
// The test site's configuration. What differs per run (socket, address, folders, salt) comes
// from the environment the fixture starts PHP with.
define( 'DB_NAME', 'wordpress' );
define( 'DB_USER', 'root' );
define( 'DB_PASSWORD', '' );
define( 'DB_HOST', 'localhost:' . getenv( 'TEST_WP_DB_SOCKET' ) );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
$table_prefix = 'wp_';

define( 'WP_HOME', getenv( 'TEST_WP_URL' ) );
define( 'WP_SITEURL', getenv( 'TEST_WP_URL' ) );
define( 'WPMU_PLUGIN_DIR', getenv( 'TEST_WP_MU_PLUGINS' ) );
// Application passwords need TLS, or a site that says it is a local one.
define( 'WP_ENVIRONMENT_TYPE', 'local' );
// Update checks and pings never leave the machine, so nothing waits on the internet.
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
define( 'DISABLE_WP_CRON', true );

foreach ( array( 'AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE' ) as $scheme ) {
	define( $scheme . '_KEY', getenv( 'TEST_WP_SECRET' ) . $scheme );
	define( $scheme . '_SALT', getenv( 'TEST_WP_SECRET' ) . $scheme . 'salt' );
}

require_once ABSPATH . 'wp-settings.php';
